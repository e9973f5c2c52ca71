// Member directory: everyone in the workspace with search, a role filter and live online status;
// admins change roles (one member from the row menu, or several ticked at once) and invite people; each row
// opens the member's profile.
import { BookUser, Check, MessageSquare, MoreHorizontal, Search, UserPlus } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type MouseEvent, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MemberDoc } from '../../schemas/collections.ts';
import type { WorkspaceRole } from '../../schemas/protocol/index.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { BulkRoleDialog } from '../components/directory/bulk-role-dialog.tsx';
import { tickAllShown, tickMember } from '../components/directory/member-selection.ts';
import { fixedRoleReason } from '../components/directory/role-change-plan.ts';
import { SelectionBar } from '../components/directory/selection-bar.tsx';
import { AgentBadge, isAgent } from '../components/messages/agent-badge.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../components/ui/cn.ts';
import { Menu, MenuContent, MenuLabel, MenuTrigger } from '../components/ui/menu.tsx';
import { SearchField } from '../components/ui/search-field.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { openDirectMessage } from '../components/workspace/direct-message.ts';
import { InviteDialog } from '../components/workspace/invite-dialog.tsx';
import { matchMembers, ROLE_LABEL } from '../components/workspace/member-search.ts';
import { RoleBadge } from '../components/workspace/role-badge.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { updateMemberRole, useMembers } from '../data/members.ts';
import { useWorkspacePermissions } from '../data/workspaces.ts';

type RoleFilter = 'all' | 'admins' | 'member' | 'guest';
const FILTERS: { id: RoleFilter; label: string; roles: readonly WorkspaceRole[] | null }[] = [
  { id: 'all', label: 'Everyone', roles: null },
  { id: 'admins', label: 'Owners & admins', roles: ['primary_owner', 'owner', 'admin'] },
  { id: 'member', label: 'Members', roles: ['member'] },
  { id: 'guest', label: 'Guests', roles: ['guest'] },
];
/** Roles an admin can hand out; the primary owner is never assigned or demoted from here. */
const ASSIGNABLE: WorkspaceRole[] = ['owner', 'admin', 'member', 'guest'];

export function DirectoryScreen() {
  usePageTitle('Directory');
  const { institution, me } = useWorkspace();
  const members = useMembers(institution.id);
  const access = useWorkspacePermissions(institution.id);
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<RoleFilter>('all');
  const [onlineOnly, setOnlineOnly] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [opening, setOpening] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // The last row ticked by hand: Shift+click ticks everything between it and the clicked row.
  const [anchor, setAnchor] = useState<string | null>(null);
  const [changingRoles, setChangingRoles] = useState(false);
  const navigate = useNavigate();
  const canSelect = access?.canManageMembers === true;

  const list = useMemo(() => {
    if (!members) return undefined;
    const roles = FILTERS.find((f) => f.id === filter)?.roles;
    return matchMembers(members, query)
      .filter((m) => !roles || roles.includes(m.role))
      .filter((m) => !onlineOnly || m.user.isOnline)
      .sort(
        (a, b) => Number(b.user.isOnline) - Number(a.user.isOnline) || nameOf(a).localeCompare(nameOf(b)),
      );
  }, [members, query, filter, onlineOnly]);
  const onlineCount = members?.filter((m) => m.user.isOnline).length ?? 0;
  // Agents have no workspace role, so they are never ticked.
  const selectable = useMemo(() => (list ?? []).filter((m) => !isAgent(m)).map((m) => m.id), [list]);
  const selectedMembers = useMemo(
    () => (members ?? []).filter((m) => selected.has(m.id)),
    [members, selected],
  );

  function tick(memberId: string, event: MouseEvent<HTMLInputElement>) {
    setSelected(
      tickMember(selected, selectable, memberId, event.currentTarget.checked, anchor, event.shiftKey),
    );
    setAnchor(memberId);
  }

  async function message(memberId: string) {
    setOpening(memberId);
    await openDirectMessage(navigate, institution.id, memberId);
    setOpening(null);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title="Directory"
        icon={<BookUser />}
        subtitle={
          members
            ? `${members.length} ${members.length === 1 ? 'member' : 'members'} · ${onlineCount} online`
            : undefined
        }
        actions={
          access?.canManageMembers ? (
            <Button size="sm" variant="outline" onClick={() => setInviting(true)}>
              <UserPlus aria-hidden />
              <span className="hidden sm:inline">Invite people</span>
              <span className="sm:hidden">Invite</span>
            </Button>
          ) : null
        }
      />
      <div className="border-b border-line px-3 py-3 md:px-4">
        <div className="mx-auto flex max-w-3xl flex-col gap-2.5">
          <SearchField
            value={query}
            onChange={setQuery}
            placeholder="Search by name or e-mail"
            label="Search members"
          />
          <fieldset className="-mx-1 flex gap-1.5 overflow-x-auto px-1 pb-0.5" aria-label="Filter by role">
            {FILTERS.map((f) => (
              <FilterChip key={f.id} active={filter === f.id} onClick={() => setFilter(f.id)}>
                {f.label}
              </FilterChip>
            ))}
            <span className="mx-0.5 w-px shrink-0 self-stretch bg-line" aria-hidden />
            <FilterChip active={onlineOnly} onClick={() => setOnlineOnly(!onlineOnly)}>
              <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden />
              Online
            </FilterChip>
          </fieldset>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {canSelect && list && list.length > 0 ? (
          <SelectionBar
            shownCount={selectable.length}
            shownSelected={selectable.filter((id) => selected.has(id)).length}
            selectedCount={selectedMembers.length}
            onToggleAll={() => setSelected(tickAllShown(selected, selectable))}
            onClear={() => setSelected(new Set())}
            onChangeRole={() => setChangingRoles(true)}
          />
        ) : null}
        {list === undefined ? (
          <Spinner />
        ) : list.length === 0 ? (
          <EmptyState icon={Search} title="No one matches">
            Try part of a name or an e-mail address, or another filter.
          </EmptyState>
        ) : (
          <ul className="mx-auto flex max-w-3xl flex-col px-1.5 py-2 md:px-3" aria-label="Members">
            {list.map((m) => (
              <li
                key={m.id}
                className={cn(
                  'group relative flex items-center gap-3 rounded-lg px-2 py-2 hover:bg-hover',
                  selected.has(m.id) && 'bg-selected hover:bg-selected',
                )}
              >
                {canSelect ? (
                  isAgent(m) ? (
                    <span className="w-4 shrink-0" aria-hidden />
                  ) : (
                    <input
                      type="checkbox"
                      checked={selected.has(m.id)}
                      onClick={(e) => tick(m.id, e)}
                      // The click handler does the work: it alone knows whether Shift was held.
                      onChange={() => undefined}
                      aria-label={`Select ${nameOf(m)}`}
                      aria-describedby={fixedRoleReason(me, m) ? `fixed-${m.id}` : undefined}
                      className="size-4 shrink-0 cursor-pointer accent-[var(--accent)]"
                    />
                  )
                ) : null}
                {canSelect && fixedRoleReason(me, m) ? (
                  <span id={`fixed-${m.id}`} className="sr-only">
                    {fixedRoleReason(me, m)}
                  </span>
                ) : null}
                <Link
                  to={`/client/${institution.id}/directory/${m.id}`}
                  className="flex min-w-0 flex-1 items-center gap-3 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  aria-label={
                    isAgent(m)
                      ? `${nameOf(m)}, AI agent`
                      : `${nameOf(m)}, ${ROLE_LABEL[m.role] ?? m.role}, ${m.user.isOnline ? 'online' : 'offline'}`
                  }
                >
                  <Avatar
                    id={m.id}
                    name={nameOf(m)}
                    src={m.profileImage}
                    online={isAgent(m) ? undefined : m.user.isOnline}
                  />
                  <div className="min-w-0 flex-1">
                    <p className="flex items-center gap-2">
                      <span className="truncate text-sm font-medium">{nameOf(m)}</span>
                      {isAgent(m) ? <AgentBadge /> : null}
                      {m.id === me.id ? <span className="shrink-0 text-xs text-muted">you</span> : null}
                    </p>
                    <p className="flex min-w-0 items-center gap-1.5 text-[13px] text-muted">
                      {m.role === 'member' || isAgent(m) ? null : (
                        <RoleBadge role={m.role} className="h-4 px-1.5 sm:hidden" />
                      )}
                      {/* An agent's address is a placeholder nobody can write to. */}
                      <span className="truncate">{isAgent(m) ? 'AI agent' : m.email}</span>
                    </p>
                  </div>
                  <span className="hidden w-32 justify-end sm:flex">
                    {isAgent(m) ? null : <RoleBadge role={m.role} />}
                  </span>
                </Link>
                {m.id === me.id ? (
                  <span className="w-8 md:w-[92px]" aria-hidden />
                ) : (
                  <Button
                    variant="outline"
                    size="sm"
                    loading={opening === m.id}
                    onClick={() => void message(m.id)}
                    aria-label={`Message ${nameOf(m)}`}
                    className="max-md:size-8 max-md:px-0"
                  >
                    <MessageSquare aria-hidden />
                    <span className="hidden md:inline">Message</span>
                  </Button>
                )}
                {access?.canManageMembers && !isAgent(m) ? (
                  <RoleMenu member={m} canEdit={m.role !== 'primary_owner' && m.id !== me.id} />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
      {canSelect ? (
        <BulkRoleDialog
          institutionId={institution.id}
          me={me}
          selected={selectedMembers}
          open={changingRoles}
          onOpenChange={setChangingRoles}
          onChanged={() => setSelected(new Set())}
        />
      ) : null}
      <InviteDialog
        institutionId={institution.id}
        institutionName={institution.name}
        open={inviting}
        onOpenChange={setInviting}
      />
    </div>
  );
}

function nameOf(m: MemberDoc): string {
  return m.name || m.email;
}

function FilterChip({
  active,
  onClick,
  children,
}: {
  active: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={active}
      className={cn(
        'inline-flex h-7 shrink-0 items-center gap-1.5 rounded-full border px-3 text-[13px] transition-colors',
        active
          ? 'border-transparent bg-primary text-primary-fg'
          : 'border-line bg-surface text-muted hover:bg-hover hover:text-fg',
      )}
    >
      {children}
    </button>
  );
}

function RoleMenu({ member, canEdit }: { member: MemberDoc; canEdit: boolean }) {
  const { institution } = useWorkspace();
  if (!canEdit) return <span className="w-8" aria-hidden />;
  return (
    <Menu>
      <MenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Change role of ${nameOf(member)}`}>
          <MoreHorizontal />
        </Button>
      </MenuTrigger>
      <MenuContent align="end" className="w-52">
        <MenuLabel>Workspace role</MenuLabel>
        <DropdownMenu.RadioGroup
          value={member.role}
          onValueChange={(role) =>
            void updateMemberRole(institution.id, member.id, role as WorkspaceRole).catch(notifyError)
          }
        >
          {ASSIGNABLE.map((role) => (
            <DropdownMenu.RadioItem
              key={role}
              value={role}
              className="flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none select-none data-[highlighted]:bg-hover"
            >
              <span className="flex size-4 items-center justify-center">
                <DropdownMenu.ItemIndicator>
                  <Check className="size-4" aria-hidden />
                </DropdownMenu.ItemIndicator>
              </span>
              {ROLE_LABEL[role]}
            </DropdownMenu.RadioItem>
          ))}
        </DropdownMenu.RadioGroup>
      </MenuContent>
    </Menu>
  );
}
