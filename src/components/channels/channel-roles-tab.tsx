// The Roles tab (channel managers): the default role every member holds, the owner role, and named
// roles with the five permission switches of spec §6; who holds a role; handing ownership over.
import { ChevronRight, Crown, Plus, ShieldCheck, Trash2, Users } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { ChannelFields } from '../../../schemas/collections.ts';
import { CHANNEL_PERMISSION_FLAGS, type ChannelPermissionFlag } from '../../../schemas/permissions.ts';
import type { ChannelMemberEntry, ChannelRole } from '../../../schemas/protocol/index.ts';
import { errorMessage, notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import {
  createChannelRole,
  deleteChannelRole,
  setRoleMembers,
  transferChannelOwnership,
  updateChannelRole,
} from '../../data/channel-roles.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { SwitchRow } from '../ui/switch.tsx';
import { PERMISSION_TEXT } from './permission-labels.ts';

type Flags = Record<ChannelPermissionFlag, boolean>;
/** A new role starts able to post, like the default role; the other permissions are opt-in. */
const NEW_ROLE_FLAGS: Flags = {
  canPinMessage: false,
  canPost: true,
  canTag: false,
  canAddMembers: false,
  canDeleteMessage: false,
};

export function ChannelRolesTab({
  channel,
  roles,
  entries,
}: {
  channel: ChannelFields;
  roles: ChannelRole[];
  entries: ChannelMemberEntry[] | undefined;
}) {
  const [openRole, setOpenRole] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const ordered = [...roles].sort(
    (a, b) =>
      Number(b.isOwnershipRole) - Number(a.isOwnershipRole) ||
      Number(b.isDefault) - Number(a.isDefault) ||
      a.name.localeCompare(b.name),
  );
  const holders = (roleId: string) => (entries ?? []).filter((e) => e.channelMember.roles.includes(roleId));

  return (
    <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
      <div className="mb-2 flex items-center justify-between">
        <p className="text-[13px] text-muted">A member may do what any of their roles allows.</p>
        <Button size="sm" variant="outline" onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          New role
        </Button>
      </div>
      <ul className="flex flex-col gap-2" aria-label="Roles">
        {ordered.map((role) => (
          <RoleCard
            key={role.id}
            channel={channel}
            role={role}
            holders={holders(role.id)}
            entries={entries ?? []}
            open={openRole === role.id}
            onToggle={() => setOpenRole(openRole === role.id ? null : role.id)}
          />
        ))}
      </ul>
      <div className="mt-6 rounded-lg border border-line p-3">
        <div className="flex items-start gap-3">
          <Crown className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden />
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium">Transfer ownership</p>
            <p className="text-[13px] text-muted">Make another member the owner of #{channel.name}.</p>
          </div>
          <Button size="sm" variant="outline" onClick={() => setTransferring(true)}>
            Transfer
          </Button>
        </div>
      </div>
      <CreateRoleDialog key={String(creating)} channel={channel} open={creating} onOpenChange={setCreating} />
      <TransferDialog
        channel={channel}
        entries={entries ?? []}
        open={transferring}
        onOpenChange={setTransferring}
      />
    </div>
  );
}

function RoleCard({
  channel,
  role,
  holders,
  entries,
  open,
  onToggle,
}: {
  channel: ChannelFields;
  role: ChannelRole;
  holders: ChannelMemberEntry[];
  entries: ChannelMemberEntry[];
  open: boolean;
  onToggle: () => void;
}) {
  const { institution } = useWorkspace();
  const [name, setName] = useState(role.name);
  const summary = role.isOwnershipRole
    ? 'Every permission, and manages the channel'
    : CHANNEL_PERMISSION_FLAGS.filter((f) => role[f])
        .map((f) => PERMISSION_TEXT[f].label)
        .join(' · ') || 'No permissions';

  function patch(update: Partial<Flags> & { name?: string }) {
    void updateChannelRole(institution.id, channel.id, role.id, update).catch(notifyError);
  }

  // The role's holders as the person last set them, until the store catches up with the server.
  const [pendingHolders, setPendingHolders] = useState<string[] | null>(null);
  const holderIds = pendingHolders ?? holders.map((h) => h.member.id);

  function setHolders(next: string[]) {
    setPendingHolders(next);
    setRoleMembers(institution.id, channel.id, role.id, next)
      .catch(notifyError)
      .finally(() => setPendingHolders(null));
  }
  return (
    <li className={cn('rounded-lg border border-line', open && 'border-line-strong shadow-xs')}>
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left hover:bg-hover"
      >
        {role.isOwnershipRole ? (
          <ShieldCheck className="size-4 shrink-0 text-accent" aria-hidden />
        ) : role.isDefault ? (
          <Users className="size-4 shrink-0 text-muted" aria-hidden />
        ) : (
          <span className="size-4 shrink-0 rounded-full border-2 border-line-strong" aria-hidden />
        )}
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium">
            {role.isDefault ? 'Everyone (default role)' : role.name}
          </span>
          <span className="block truncate text-xs text-muted">{summary}</span>
        </span>
        {!role.isDefault ? <span className="text-xs text-muted tabular-nums">{holders.length}</span> : null}
        <ChevronRight
          className={cn('size-4 text-muted transition-transform', open && 'rotate-90')}
          aria-hidden
        />
      </button>
      {open ? (
        <div className="border-t border-line px-3 pb-3">
          {!role.isDefault && !role.isOwnershipRole ? (
            <div className="flex items-end gap-2 pt-3">
              <div className="flex flex-1 flex-col gap-1.5">
                <Label htmlFor={`role-${role.id}-name`}>Role name</Label>
                <Input
                  id={`role-${role.id}-name`}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  maxLength={40}
                />
              </div>
              <Button
                variant="outline"
                disabled={!name.trim() || name.trim() === role.name}
                onClick={() => patch({ name: name.trim() })}
              >
                Rename
              </Button>
            </div>
          ) : null}
          {role.isOwnershipRole ? (
            <p className="pt-3 text-[13px] text-muted">
              Owners can do everything and are the only ones who manage the channel.
            </p>
          ) : (
            <div className="divide-y divide-line">
              {CHANNEL_PERMISSION_FLAGS.map((flag) => (
                <SwitchRow
                  key={flag}
                  label={PERMISSION_TEXT[flag].label}
                  description={PERMISSION_TEXT[flag].help}
                  checked={role[flag]}
                  onCheckedChange={(checked) => patch({ [flag]: checked })}
                />
              ))}
            </div>
          )}
          {!role.isDefault ? (
            <div className="pt-2">
              <p className="mb-1 text-xs font-semibold text-muted">Members with this role</p>
              <ul className="-mx-1 flex max-h-48 flex-col overflow-y-auto">
                {entries.map(({ member }) => {
                  const on = holderIds.includes(member.id);
                  const locked = role.isOwnershipRole && on && holderIds.length === 1;
                  return (
                    <li key={member.id}>
                      <label className="flex cursor-pointer items-center gap-2.5 rounded-md px-1 py-1 hover:bg-hover">
                        <input
                          type="checkbox"
                          checked={on}
                          disabled={locked}
                          onChange={() => {
                            const next = on
                              ? holderIds.filter((id) => id !== member.id)
                              : [...holderIds, member.id];
                            setHolders(next);
                          }}
                          className="size-4 accent-[var(--accent)]"
                          aria-label={`${role.name}: ${member.name || member.email}`}
                        />
                        <Avatar
                          id={member.id}
                          name={member.name || member.email}
                          src={member.profileImage}
                          size="xs"
                        />
                        <span className="min-w-0 flex-1 truncate text-[13px]">
                          {member.name || member.email}
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : null}
          {!role.isDefault && !role.isOwnershipRole ? (
            <div className="flex justify-end pt-3">
              <Button
                size="sm"
                variant="ghost"
                className="text-danger"
                onClick={() => void deleteChannelRole(institution.id, channel.id, role.id).catch(notifyError)}
              >
                <Trash2 aria-hidden />
                Delete role
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function CreateRoleDialog({
  channel,
  open,
  onOpenChange,
}: {
  channel: ChannelFields;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { institution } = useWorkspace();
  const [name, setName] = useState('');
  const [flags, setFlags] = useState<Flags>(NEW_ROLE_FLAGS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    setBusy(true);
    setError(null);
    try {
      await createChannelRole(institution.id, channel.id, { name: name.trim(), ...flags });
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`New role in #${channel.name}`}>
      <form onSubmit={submit} className="flex flex-col gap-3 pt-2" noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-name`}>Role name</Label>
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. Moderators"
            maxLength={40}
            autoFocus
            aria-invalid={error ? true : undefined}
          />
          {error ? <FieldMessage error>{error}</FieldMessage> : null}
        </div>
        <div className="divide-y divide-line">
          {CHANNEL_PERMISSION_FLAGS.map((flag) => (
            <SwitchRow
              key={flag}
              label={PERMISSION_TEXT[flag].label}
              description={PERMISSION_TEXT[flag].help}
              checked={flags[flag]}
              onCheckedChange={(checked) => setFlags({ ...flags, [flag]: checked })}
            />
          ))}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create role
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function TransferDialog({
  channel,
  entries,
  open,
  onOpenChange,
}: {
  channel: ChannelFields;
  entries: ChannelMemberEntry[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { institution, me } = useWorkspace();
  const [target, setTarget] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const others = entries.filter((e) => e.member.id !== me.id);

  async function transfer() {
    if (!target) return;
    setBusy(true);
    try {
      await transferChannelOwnership(institution.id, channel.id, target);
      onOpenChange(false);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Transfer #${channel.name}`}
      description="The new owner manages the channel. You keep your other roles."
    >
      <ul className="-mx-2 flex max-h-72 flex-col overflow-y-auto pt-2">
        {others.length === 0 ? (
          <p className="py-6 text-center text-[13px] text-muted">Add someone to the channel first.</p>
        ) : (
          others.map(({ member }) => (
            <li key={member.id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-hover">
                <input
                  type="radio"
                  name="new-owner"
                  checked={target === member.id}
                  onChange={() => setTarget(member.id)}
                  className="size-4 accent-[var(--accent)]"
                />
                <Avatar
                  id={member.id}
                  name={member.name || member.email}
                  src={member.profileImage}
                  size="sm"
                />
                <span className="min-w-0 flex-1 truncate text-sm">{member.name || member.email}</span>
              </label>
            </li>
          ))
        )}
      </ul>
      <div className="flex justify-end gap-2 pt-3">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button onClick={() => void transfer()} loading={busy} disabled={!target}>
          Transfer ownership
        </Button>
      </div>
    </Dialog>
  );
}
