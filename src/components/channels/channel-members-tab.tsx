// The Members tab of the channel details: who is in the channel with their roles; people with
// canAddMembers add others, managers remove people and hand out roles from each row's menu.
import { Check, MoreHorizontal, ShieldCheck, UserMinus, UserPlus } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useMemo, useState } from 'react';
import type { ChannelFields } from '../../../schemas/collections.ts';
import type { ChannelPermissions } from '../../../schemas/permissions.ts';
import type { ChannelMemberEntry, ChannelRole } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { addChannelMembers, removeChannelMembers } from '../../data/channel-members.ts';
import { setRoleMembers } from '../../data/channel-roles.ts';
import { useMembers } from '../../data/members.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from '../ui/menu.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { Spinner } from '../ui/states.tsx';
import { matchMembers } from '../workspace/member-search.ts';

export function ChannelMembersTab({
  channel,
  entries,
  roles,
  permissions,
}: {
  channel: ChannelFields;
  entries: ChannelMemberEntry[] | undefined;
  roles: ChannelRole[];
  permissions: ChannelPermissions;
}) {
  const { institution, me } = useWorkspace();
  const [query, setQuery] = useState('');
  const [adding, setAdding] = useState(false);
  const rolesById = useMemo(() => new Map(roles.map((r) => [r.id, r])), [roles]);
  const list = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (entries ?? [])
      .filter(
        (e) => !q || e.member.name.toLowerCase().includes(q) || e.member.email.toLowerCase().includes(q),
      )
      .sort((a, b) => rank(a, rolesById) - rank(b, rolesById) || a.member.name.localeCompare(b.member.name));
  }, [entries, query, rolesById]);
  const assignable = roles.filter((r) => !r.isDefault);

  async function toggleRole(role: ChannelRole, memberId: string, on: boolean) {
    const holders = (entries ?? [])
      .filter((e) => e.channelMember.roles.includes(role.id))
      .map((e) => e.member.id);
    const next = on ? [...new Set([...holders, memberId])] : holders.filter((id) => id !== memberId);
    await setRoleMembers(institution.id, channel.id, role.id, next).catch(notifyError);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-2 px-4 pt-3 pb-2">
        <SearchField
          value={query}
          onChange={setQuery}
          placeholder="Find a member"
          label="Find a member"
          className="flex-1"
        />
        {permissions.canAddMembers ? (
          <Button variant="outline" onClick={() => setAdding(true)}>
            <UserPlus aria-hidden />
            Add
          </Button>
        ) : null}
      </div>
      {entries === undefined ? (
        <Spinner />
      ) : (
        <ul className="min-h-0 flex-1 overflow-y-auto px-2 pb-3" aria-label="Channel members">
          {list.map(({ member, channelMember }) => {
            const held = channelMember.roles.map((id) => rolesById.get(id)).filter((r) => r !== undefined);
            const shown = held.filter((r) => !r.isDefault);
            return (
              <li
                key={member.id}
                className="group flex items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-hover"
              >
                <Avatar
                  id={member.id}
                  name={member.name || member.email}
                  src={member.profileImage}
                  size="md"
                  online={member.user.isOnline}
                />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">
                    {member.name || member.email}
                    {member.id === me.id ? <span className="font-normal text-muted"> (you)</span> : null}
                  </p>
                  <p className="flex flex-wrap items-center gap-1 text-xs text-muted">
                    {shown.length === 0 ? (
                      <span>{member.email}</span>
                    ) : (
                      shown.map((r) => <RoleChip key={r.id} role={r} />)
                    )}
                  </p>
                </div>
                {permissions.canManage && member.id !== me.id ? (
                  <Menu>
                    <MenuTrigger asChild>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Options for ${member.name || member.email}`}
                      >
                        <MoreHorizontal />
                      </Button>
                    </MenuTrigger>
                    <MenuContent align="end" className="w-60">
                      {assignable.length > 0 ? <MenuLabel>Roles</MenuLabel> : null}
                      {assignable.map((role) => {
                        const on = channelMember.roles.includes(role.id);
                        return (
                          <DropdownMenu.CheckboxItem
                            key={role.id}
                            checked={on}
                            onCheckedChange={(v) => void toggleRole(role, member.id, v === true)}
                            onSelect={(e) => e.preventDefault()}
                            className="flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none select-none data-[highlighted]:bg-hover"
                          >
                            <span className="flex size-4 items-center justify-center">
                              <DropdownMenu.ItemIndicator>
                                <Check className="size-4" aria-hidden />
                              </DropdownMenu.ItemIndicator>
                            </span>
                            <span className="flex-1 truncate">{role.name}</span>
                          </DropdownMenu.CheckboxItem>
                        );
                      })}
                      {assignable.length > 0 ? <MenuSeparator /> : null}
                      <MenuItem
                        icon={<UserMinus />}
                        destructive
                        onSelect={() =>
                          void removeChannelMembers(institution.id, channel.id, [member.id]).catch(
                            notifyError,
                          )
                        }
                      >
                        Remove from #{channel.name}
                      </MenuItem>
                    </MenuContent>
                  </Menu>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <AddMembersDialog
        open={adding}
        onOpenChange={setAdding}
        channel={channel}
        present={new Set((entries ?? []).map((e) => e.member.id))}
      />
    </div>
  );
}

/** Owners first, then people holding any named role, then everyone else. */
function rank(entry: ChannelMemberEntry, rolesById: ReadonlyMap<string, ChannelRole>): number {
  const roles = entry.channelMember.roles.map((id) => rolesById.get(id));
  if (roles.some((r) => r?.isOwnershipRole)) return 0;
  if (roles.some((r) => r && !r.isDefault)) return 1;
  return 2;
}

export function RoleChip({ role }: { role: Pick<ChannelRole, 'name' | 'isOwnershipRole'> }) {
  return (
    <span
      className={cn(
        'inline-flex h-[18px] items-center gap-1 rounded px-1.5 text-[11px] font-medium',
        role.isOwnershipRole ? 'bg-accent-soft text-accent-fg' : 'bg-selected text-fg/80',
      )}
    >
      {role.isOwnershipRole ? <ShieldCheck className="size-3" aria-hidden /> : null}
      {role.name}
    </span>
  );
}

function AddMembersDialog({
  open,
  onOpenChange,
  channel,
  present,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  channel: ChannelFields;
  present: ReadonlySet<string>;
}) {
  const { institution } = useWorkspace();
  const members = useMembers(institution.id);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const candidates = matchMembers(
    (members ?? []).filter((m) => !present.has(m.id)),
    query,
  );

  async function add() {
    setBusy(true);
    try {
      await addChannelMembers(institution.id, channel.id, [...picked]);
      setPicked(new Set());
      onOpenChange(false);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Add people to #${channel.name}`}>
      <div className="flex flex-col gap-3 pt-2">
        <SearchField
          value={query}
          onChange={setQuery}
          placeholder="Search by name or e-mail"
          label="Search people to add"
          autoFocus
        />
        {members === undefined ? (
          <Spinner />
        ) : candidates.length === 0 ? (
          <p className="py-6 text-center text-[13px] text-muted">Everyone is already here.</p>
        ) : (
          <ul className="-mx-2 flex max-h-72 flex-col overflow-y-auto">
            {candidates.map((m) => {
              const on = picked.has(m.id);
              return (
                <li key={m.id}>
                  <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-hover">
                    <input
                      type="checkbox"
                      checked={on}
                      onChange={() => {
                        const next = new Set(picked);
                        if (on) next.delete(m.id);
                        else next.add(m.id);
                        setPicked(next);
                      }}
                      className="size-4 accent-[var(--accent)]"
                    />
                    <Avatar id={m.id} name={m.name || m.email} src={m.profileImage} size="sm" />
                    <span className="min-w-0 flex-1 truncate text-sm font-medium">{m.name || m.email}</span>
                    <span className="hidden truncate text-xs text-muted sm:block">{m.email}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={() => void add()} loading={busy} disabled={picked.size === 0}>
            {picked.size > 1 ? `Add ${picked.size} people` : 'Add'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
