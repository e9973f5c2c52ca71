// Confirming a role change for several members: pick the role, see how many people change to it, who has
// it already and who will not change and why, then one call changes them all (or, if the server refuses
// someone after all, nobody, with each refusal shown beside the person's name).
import { useId, useMemo, useState } from 'react';
import type { MemberDoc } from '../../../schemas/collections.ts';
import type { WorkspaceRole } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { updateMemberRoles } from '../../data/members.ts';
import { ApiError } from '../../store/api-error.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { ROLE_LABEL } from '../workspace/member-search.ts';
import { assignableRoles, planRoleChange } from './role-change-plan.ts';

const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);
const nameOf = (m: MemberDoc) => m.name || m.email;

export function BulkRoleDialog({
  institutionId,
  me,
  selected,
  open,
  onOpenChange,
  onChanged,
}: {
  institutionId: string;
  me: Pick<MemberDoc, 'id' | 'role'>;
  selected: readonly MemberDoc[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After a change went through: the selection is done with. */
  onChanged: () => void;
}) {
  const [role, setRole] = useState<WorkspaceRole | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The server's own refusals, by member id, when it turned the change down after all.
  const [serverRefusals, setServerRefusals] = useState<ReadonlyMap<string, string>>(new Map());
  const groupId = useId();
  const plan = useMemo(() => (role ? planRoleChange(me, selected, role) : null), [me, selected, role]);
  const refused = plan
    ? [
        ...plan.refused,
        ...plan.change
          .filter((m) => serverRefusals.has(m.id))
          .map((member) => ({ member, reason: serverRefusals.get(member.id) ?? '' })),
      ]
    : [];
  const change = plan?.change.filter((m) => !serverRefusals.has(m.id)) ?? [];
  const label = role ? (ROLE_LABEL[role] ?? role) : '';

  async function confirm() {
    if (!role || change.length === 0) return;
    setBusy(true);
    setError(null);
    const ids = change.map((m) => m.id);
    try {
      await updateMemberRoles(institutionId, ids, role);
      toast.success(`${people(ids.length)} ${ids.length === 1 ? 'is' : 'are'} now ${label}`);
      onChanged();
      onOpenChange(false);
    } catch (err) {
      // "memberIds.2" → the member sent third: put the reason beside them.
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        const byId = new Map(serverRefusals);
        for (const [key, reason] of Object.entries(err.fields)) {
          const id = ids[Number(key.split('.')[1])];
          if (id) byId.set(id, reason);
        }
        setServerRefusals(byId);
        setError('Nobody was changed: the people below cannot be. Confirm again to change the others.');
      } else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setRole(null);
          setError(null);
          setServerRefusals(new Map());
        }
        onOpenChange(next);
      }}
      title={`Change the role of ${people(selected.length)}`}
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={() => void confirm()} loading={busy} disabled={!role || change.length === 0}>
            {role && change.length > 0 ? `Make ${people(change.length)} ${label}` : 'Change role'}
          </Button>
        </div>
      }
    >
      <fieldset className="flex flex-col gap-1 pt-1">
        <legend id={groupId} className="mb-1.5 text-[13px] font-medium">
          New workspace role
        </legend>
        <div className="flex flex-wrap gap-1.5">
          {assignableRoles(me.role).map((r) => (
            <label
              key={r}
              className="flex h-8 cursor-pointer items-center gap-2 rounded-md border border-line px-3 text-sm has-[:checked]:border-accent has-[:checked]:bg-accent-soft has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                name={groupId}
                value={r}
                checked={role === r}
                onChange={() => {
                  setRole(r);
                  setServerRefusals(new Map());
                  setError(null);
                }}
                className="size-3.5 accent-[var(--accent)]"
              />
              {ROLE_LABEL[r] ?? r}
            </label>
          ))}
        </div>
      </fieldset>
      {plan ? (
        <div className="mt-4 flex flex-col gap-3 text-sm" data-testid="role-change-summary">
          <p className="font-medium" aria-live="polite">
            {change.length > 0
              ? `${people(change.length)} will become ${label}.`
              : `Nobody will become ${label}.`}
          </p>
          {change.length > 0 ? <NameList label={`Becoming ${label}`} members={change} /> : null}
          {plan.same.length > 0 ? (
            <p className="text-muted">
              Already {label}: {plan.same.map(nameOf).join(', ')}.
            </p>
          ) : null}
          {refused.length > 0 ? (
            <div>
              <p className="font-medium">Will not change ({refused.length})</p>
              <ul aria-label="Will not change" className="mt-1 flex flex-col gap-1">
                {refused.map(({ member, reason }) => (
                  <li key={member.id} className="text-[13px]">
                    <span className="font-medium">{nameOf(member)}</span>
                    <span className="text-muted">: {reason}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : (
        <p className="mt-4 text-[13px] text-muted">Pick a role to see who changes.</p>
      )}
      {error ? (
        <p role="alert" className="mt-3 text-[13px] text-danger">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

function NameList({ label, members }: { label: string; members: readonly MemberDoc[] }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-1">
      {members.map((m) => (
        <li key={m.id} className="rounded-full bg-surface-2 px-2 py-0.5 text-[13px]">
          {nameOf(m)}
        </li>
      ))}
    </ul>
  );
}
