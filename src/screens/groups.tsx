// Workspace groups (/client/:clientId/groups): named sets of people that can be mentioned at once.
// Owners and admins create, rename and delete groups and add or remove people by e-mail (spec §5–§6);
// everyone else sees them read-only. Opening a group is recorded as a visit (metrics).
import { ChevronRight, MoreHorizontal, Pencil, Plus, Trash2, UsersRound, X } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { Group } from '../../schemas/protocol/index.ts';
import { errorMessage, notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { toast } from '../app/toast.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../components/ui/cn.ts';
import { Dialog } from '../components/ui/dialog.tsx';
import { FieldMessage, Input, Label } from '../components/ui/input.tsx';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../components/ui/menu.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { TagsInput, withPending } from '../components/ui/tags-input.tsx';
import { EMAILS_AT_ONCE, emailProblem, normalizeEmail } from '../components/workspace/email-list.ts';
import { MemberAvatar } from '../components/workspace/member-avatar.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { createGroup, deleteGroup, renameGroup, updateGroupEmails, useGroups } from '../data/groups.ts';
import { visitGroup } from '../data/visits.ts';
import { useWorkspacePermissions } from '../data/workspaces.ts';

type NameDialog = { kind: 'create' } | { kind: 'rename'; group: Group } | null;

export function GroupsScreen() {
  usePageTitle('Groups');
  const { institution } = useWorkspace();
  const groups = useGroups(institution.id);
  const access = useWorkspacePermissions(institution.id);
  const canManage = access?.canManageGroups === true;
  const [open, setOpen] = useState<string | null>(null);
  const [dialog, setDialog] = useState<NameDialog>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);

  function toggle(group: Group) {
    const next = open === group.id ? null : group.id;
    setOpen(next);
    if (next) visitGroup(institution.id, group.id);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title="Groups"
        icon={<UsersRound />}
        subtitle={canManage ? 'Mention a whole team at once' : 'Managed by owners and admins'}
        actions={
          canManage ? (
            <Button size="sm" onClick={() => setDialog({ kind: 'create' })}>
              <Plus aria-hidden />
              New group
            </Button>
          ) : null
        }
      />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {groups === undefined ? (
          <Spinner />
        ) : groups.length === 0 ? (
          <EmptyState
            icon={UsersRound}
            title="No groups yet"
            action={
              canManage ? (
                <Button variant="outline" onClick={() => setDialog({ kind: 'create' })}>
                  <Plus aria-hidden />
                  Create a group
                </Button>
              ) : null
            }
          >
            Groups like @design or @night-shift let people reach a whole team with one mention.
          </EmptyState>
        ) : (
          <ul className="mx-auto flex max-w-3xl flex-col gap-2 px-3 py-4 md:px-6" aria-label="Groups">
            {groups.map((group) => (
              <GroupCard
                key={group.id}
                group={group}
                open={open === group.id}
                onToggle={() => toggle(group)}
                canManage={canManage}
                onRename={() => setDialog({ kind: 'rename', group })}
                onDelete={() => setDeleting(group)}
              />
            ))}
          </ul>
        )}
      </div>
      <GroupNameDialog
        key={dialog?.kind === 'rename' ? dialog.group.id : (dialog?.kind ?? 'none')}
        dialog={dialog}
        onClose={() => setDialog(null)}
        onCreated={(group) => setOpen(group.id)}
      />
      <Dialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete @${deleting?.name ?? ''}?`}
        description="People stay in the workspace; only the group goes."
      >
        <div className="flex justify-end gap-2 pt-3">
          <Button variant="ghost" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              if (deleting) void deleteGroup(institution.id, deleting.id).catch(notifyError);
              setDeleting(null);
            }}
          >
            Delete group
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function GroupCard({
  group,
  open,
  onToggle,
  canManage,
  onRename,
  onDelete,
}: {
  group: Group;
  open: boolean;
  onToggle: () => void;
  canManage: boolean;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { institution, membersById } = useWorkspace();
  const people = group.memberIds
    .map((id) => membersById.get(id))
    .filter((m) => m !== undefined)
    .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email));
  const count = group.memberIds.length;

  async function remove(email: string) {
    await updateGroupEmails(institution.id, group.id, [email], 'remove').catch(notifyError);
  }

  return (
    <li className={cn('rounded-xl border border-line bg-surface', open && 'border-line-strong shadow-xs')}>
      <div className="flex items-center gap-2 pr-2">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={open}
          className="flex min-w-0 flex-1 items-center gap-3 rounded-xl px-3 py-3 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-selected text-muted">
            <UsersRound className="size-4" aria-hidden />
          </span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-semibold">@{group.name}</span>
            <span className="block text-xs text-muted">
              {count} {count === 1 ? 'person' : 'people'}
            </span>
          </span>
          <span className="hidden -space-x-1.5 sm:flex" aria-hidden>
            {people.slice(0, 5).map((m) => (
              <Avatar
                key={m.id}
                id={m.id}
                name={m.name || m.email}
                src={m.profileImage}
                size="sm"
                className="rounded-md ring-2 ring-surface"
              />
            ))}
          </span>
          <ChevronRight
            className={cn('size-4 text-muted transition-transform', open && 'rotate-90')}
            aria-hidden
          />
        </button>
        {canManage ? (
          <Menu>
            <MenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label={`Options for @${group.name}`}>
                <MoreHorizontal />
              </Button>
            </MenuTrigger>
            <MenuContent align="end">
              <MenuItem icon={<Pencil />} onSelect={onRename}>
                Rename group
              </MenuItem>
              <MenuSeparator />
              <MenuItem icon={<Trash2 />} destructive onSelect={onDelete}>
                Delete group
              </MenuItem>
            </MenuContent>
          </Menu>
        ) : null}
      </div>
      {open ? (
        <div className="border-t border-line px-3 pt-3 pb-3">
          {canManage ? <AddPeopleForm group={group} /> : null}
          {people.length === 0 ? (
            <p className="py-4 text-center text-[13px] text-muted">No one is in this group yet.</p>
          ) : (
            <ul className="mt-2 flex flex-col" aria-label={`People in @${group.name}`}>
              {people.map((m) => (
                <li key={m.id} className="flex items-center gap-3 rounded-md px-1 py-1.5">
                  <MemberAvatar
                    member={m}
                    id={m.id}
                    name={m.name || m.email}
                    src={m.profileImage}
                    size="sm"
                  />
                  <span className="min-w-0 flex-1 truncate text-sm">{m.name || m.email}</span>
                  <span className="hidden truncate text-xs text-muted sm:block">{m.email}</span>
                  {canManage ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      aria-label={`Remove ${m.name || m.email} from @${group.name}`}
                      onClick={() => void remove(m.email)}
                    >
                      <X />
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </li>
  );
}

function AddPeopleForm({ group }: { group: Group }) {
  const { institution } = useWorkspace();
  const [emails, setEmails] = useState<string[]>([]);
  const [typing, setTyping] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    // An address still being typed is sent too.
    const all = withPending(emails, typing, { max: EMAILS_AT_ONCE, normalize: normalizeEmail });
    setEmails(all);
    setTyping('');
    if (all.length === 0) return setError('Enter at least one e-mail address');
    const problem = all.map(emailProblem).find(Boolean);
    if (problem) return setError(`${problem}: correct or remove it`);
    setBusy(true);
    setError(null);
    try {
      const { unknownEmails } = await updateGroupEmails(institution.id, group.id, all, 'add');
      setEmails([]);
      if (unknownEmails.length > 0) {
        toast.warning(`Not in the workspace: ${unknownEmails.join(', ')}`);
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-1.5" noValidate>
      <Label htmlFor={`${id}-emails`} className="sr-only">
        Add people by e-mail
      </Label>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <TagsInput
            id={`${id}-emails`}
            tags={emails}
            onChange={(next) => {
              setEmails(next);
              setError(null);
            }}
            text={typing}
            onTextChange={setTyping}
            rules={{ max: EMAILS_AT_ONCE, normalize: normalizeEmail }}
            validate={emailProblem}
            placeholder="Add people by e-mail"
            invalid={Boolean(error)}
          />
        </div>
        <Button type="submit" variant="outline" loading={busy}>
          Add
        </Button>
      </div>
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
    </form>
  );
}

function GroupNameDialog({
  dialog,
  onClose,
  onCreated,
}: {
  dialog: NameDialog;
  onClose: () => void;
  onCreated: (group: Group) => void;
}) {
  const { institution } = useWorkspace();
  const [name, setName] = useState(dialog?.kind === 'rename' ? dialog.group.name : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    setBusy(true);
    setError(null);
    try {
      if (dialog?.kind === 'rename') await renameGroup(institution.id, dialog.group.id, name.trim());
      else onCreated(await createGroup(institution.id, name.trim()));
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={dialog !== null}
      onOpenChange={(o) => !o && onClose()}
      title={dialog?.kind === 'rename' ? 'Rename group' : 'New group'}
      description="People mention the group with @ and its name."
    >
      <form onSubmit={submit} className="flex flex-col gap-4 pt-2" noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-name`}>Group name</Label>
          <div className="relative">
            <span className="pointer-events-none absolute top-2 left-3 text-sm text-faint">@</span>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="design"
              className="pl-7"
              autoFocus
              autoComplete="off"
              maxLength={80}
              aria-invalid={error ? true : undefined}
            />
          </div>
          {error ? <FieldMessage error>{error}</FieldMessage> : null}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {dialog?.kind === 'rename' ? 'Save' : 'Create group'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
