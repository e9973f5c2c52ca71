// Workspace sidebar: switcher, message search, activity, drafts, directory, groups and (for owners and
// admins) metrics, the person's channel sections and direct messages, with unread counts.
import {
  BarChart3,
  Bell,
  BookUser,
  Building2,
  ChevronDown,
  DoorOpen,
  LogOut,
  PenLine,
  Plus,
  Search,
  Settings,
  SlidersHorizontal,
  SquarePen,
  User,
  UserPlus,
  UsersRound,
} from 'lucide-react';
import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { NavLink, useMatch, useNavigate } from 'react-router';
import type { ChannelFields } from '../../../schemas/collections.ts';
import { isWorkspaceAdminRole, workspacePermissions } from '../../../schemas/permissions.ts';
import type { WorkspaceRole } from '../../../schemas/protocol/index.ts';
import { useIsDesktop } from '../../app/media.ts';
import { logout } from '../../app/session-exit.ts';
import { channelLabel, useWorkspace } from '../../app/workspace-context.ts';
import { useActivities } from '../../data/activities.ts';
import { useJoinedSummary } from '../../data/channels.ts';
import { useDraftCount } from '../../data/drafts.ts';
import { useSettings } from '../../data/settings.ts';
import { useInstitutions } from '../../data/workspaces.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { IconAction } from '../ui/icon-action.tsx';
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from '../ui/menu.tsx';
import { ChannelSections } from './channel-sections.tsx';
import { ConnectionDot } from './connection-status.tsx';
import { MemberAvatar } from './member-avatar.tsx';

type DialogName = 'create' | 'browse' | 'dm' | 'invite' | 'leave' | null;

// The links' icons made once: an element made in each render is a new prop, and the memoised link redraws.
const BELL = <Bell />;
const BOOK_USER = <BookUser />;
const USERS_ROUND = <UsersRound />;
const BAR_CHART = <BarChart3 />;
const PEN_LINE = <PenLine />;
const NO_UNREAD: ReadonlyMap<string, number> = new Map();

// The sidebar's dialogs load when first opened, not with the channel's first rows (decision 0062): the
// channel-name check brings zod, and the forms are of no use before someone asks for one.
const CreateChannelDialog = lazy(() =>
  import('../channels/create-channel-dialog.tsx').then((m) => ({ default: m.CreateChannelDialog })),
);
const BrowseChannelsDialog = lazy(() =>
  import('../channels/browse-channels-dialog.tsx').then((m) => ({ default: m.BrowseChannelsDialog })),
);
const NewMessageDialog = lazy(() =>
  import('./new-message-dialog.tsx').then((m) => ({ default: m.NewMessageDialog })),
);
const InviteDialog = lazy(() => import('./invite-dialog.tsx').then((m) => ({ default: m.InviteDialog })));
// The new workspace's checklist, shown in the sidebar on phones only: loaded there when it is shown.
const GettingStarted = lazy(() =>
  import('./getting-started.tsx').then((m) => ({ default: m.GettingStarted })),
);
const LeaveWorkspaceDialog = lazy(() =>
  import('./leave-workspace-dialog.tsx').then((m) => ({ default: m.LeaveWorkspaceDialog })),
);

export function Sidebar({ className }: { className?: string }) {
  const workspace = useWorkspace();
  const { institution, me } = workspace;
  const base = `/client/${institution.id}`;
  // A summary, not the joined list: a message in the open channel changes the list but not this.
  const joined = useJoinedSummary(institution.id, me.id);
  const activities = useActivities(institution.id);
  const settings = useSettings();
  // The window's width, not the stored setting: on a first visit the setting's default (not desktop)
  // would show the phone's checklist in a desktop sidebar until the stored row caught up.
  const isDesktop = useIsDesktop();
  const [dialog, setOpenDialog] = useState<DialogName>(null);
  // Each dialog stays mounted once opened, so closing it animates out as before.
  const [opened, setOpened] = useState<ReadonlySet<DialogName>>(() => new Set());
  // The same functions on every render, so the memoised parts below redraw only for their own props.
  const openers = useMemo(() => {
    const setDialog = (name: DialogName) => {
      setOpenDialog(name);
      if (name) setOpened((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));
    };
    return {
      setDialog,
      invite: () => setDialog('invite'),
      leave: () => setDialog('leave'),
      browse: () => setDialog('browse'),
      create: () => setDialog('create'),
      dm: () => setDialog('dm'),
    };
  }, []);
  const openMatch = useMatch('/client/:clientId/channel/:channelId');
  const openChannelId = openMatch?.params.channelId;

  const unreadByChannel = joined?.unread ?? NO_UNREAD;
  const directs = useMemo(
    () =>
      (joined?.directs ?? [])
        .map(({ channel, latest }) => ({ channel, latest, label: channelLabel(channel, workspace) }))
        // The latest conversation first, as in Slack (decision 0083); a new one by when it was opened.
        .sort((a, b) => b.latest.localeCompare(a.latest) || a.label.title.localeCompare(b.label.title)),
    [joined, workspace],
  );

  const setOpen = (name: Exclude<DialogName, null>) => (open: boolean) =>
    openers.setDialog(open ? name : null);

  return (
    <nav aria-label="Workspace" className={cn('flex h-full min-h-0 flex-col bg-sidebar', className)}>
      <WorkspaceSwitcher onInvite={openers.invite} onLeave={openers.leave} />

      <SidebarSearch base={base} />
      <div className="flex flex-col gap-px px-2 pt-1 pb-2">
        <SidebarLink to={`${base}/activity`} icon={BELL} label="Activity" count={activities?.unread} />
        <DraftsLink base={base} institutionId={institution.id} />
        <SidebarLink to={`${base}/directory`} icon={BOOK_USER} label="Directory" />
        <SidebarLink to={`${base}/groups`} icon={USERS_ROUND} label="Groups" />
        {/* Spec §5–§6: only owners and admins view metrics, so only they see the way in. */}
        {workspacePermissions(me.role as WorkspaceRole).canViewMetrics ? (
          <SidebarLink to={`${base}/metrics`} icon={BAR_CHART} label="Metrics" />
        ) : null}
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {settings.showChannels ? (
          <ChannelSections
            base={base}
            hasChannels={joined === undefined || joined.hasChannels}
            openChannelId={openChannelId}
            unread={unreadByChannel}
            onBrowse={openers.browse}
            onCreateChannel={openers.create}
          />
        ) : null}

        {settings.showDMs ? (
          <Section
            title="Direct messages"
            actions={
              <IconAction label="New direct message" onClick={openers.dm}>
                <SquarePen />
              </IconAction>
            }
          >
            {joined === undefined ? null : directs.length === 0 ? (
              <EmptyHint onClick={openers.dm}>Message someone</EmptyHint>
            ) : (
              directs.map(({ channel, label }) => {
                const person = label.otherMemberId
                  ? workspace.membersById.get(label.otherMemberId)
                  : undefined;
                return (
                  <ChannelLink
                    key={channel.id}
                    base={base}
                    channel={channel}
                    title={label.isSelf ? `${label.title} (you)` : label.title}
                    icon={
                      <MemberAvatar
                        member={person}
                        id={label.otherMemberId ?? channel.id}
                        name={label.title}
                        src={person?.profileImage}
                        size="xs"
                      />
                    }
                    unread={channel.id === openChannelId ? 0 : (unreadByChannel.get(channel.id) ?? 0)}
                  />
                );
              })
            )}
          </Section>
        ) : null}

        {/* On phones the sidebar is the workspace's home: the new workspace's checklist is here, under the
            conversations, so that its arrival (a request and a chunk after the sidebar is drawn) moves
            nothing a person is about to tap. */}
        {isDesktop ? null : (
          <Suspense fallback={null}>
            <GettingStarted compact onInvite={openers.invite} onCreateChannel={openers.create} />
          </Suspense>
        )}
      </div>

      <SidebarFooter />

      <Suspense fallback={null}>
        {opened.has('create') ? (
          <CreateChannelDialog
            institutionId={institution.id}
            open={dialog === 'create'}
            onOpenChange={setOpen('create')}
          />
        ) : null}
        {opened.has('browse') ? (
          <BrowseChannelsDialog
            institutionId={institution.id}
            open={dialog === 'browse'}
            onOpenChange={setOpen('browse')}
          />
        ) : null}
        {opened.has('dm') ? <NewMessageDialog open={dialog === 'dm'} onOpenChange={setOpen('dm')} /> : null}
        {opened.has('invite') ? (
          <InviteDialog
            institutionId={institution.id}
            institutionName={institution.name}
            open={dialog === 'invite'}
            onOpenChange={setOpen('invite')}
          />
        ) : null}
        {opened.has('leave') ? (
          <LeaveWorkspaceDialog open={dialog === 'leave'} onOpenChange={setOpen('leave')} />
        ) : null}
      </Suspense>
    </nav>
  );
}

/** The workspace's search box: Enter opens the results page (server search, or this device offline). */
const SidebarSearch = memo(function SidebarSearch({ base }: { base: string }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  return (
    <search>
      <form
        className="px-2 pb-1"
        onSubmit={(e) => {
          e.preventDefault();
          const q = query.trim();
          if (q) void navigate(`${base}/search?q=${encodeURIComponent(q)}`);
        }}
      >
        <label className="relative block">
          <span className="sr-only">Search messages</span>
          <Search className="pointer-events-none absolute top-2 left-2.5 size-3.5 text-faint" aria-hidden />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search messages"
            className="h-8 w-full rounded-md border border-line bg-surface pr-2 pl-8 text-[13px] outline-none placeholder:text-faint focus:border-accent focus:ring-2 focus:ring-ring"
          />
        </label>
      </form>
    </search>
  );
});

const WorkspaceSwitcher = memo(function WorkspaceSwitcher({
  onInvite,
  onLeave,
}: {
  onInvite: () => void;
  onLeave: () => void;
}) {
  const { institution, me } = useWorkspace();
  const institutions = useInstitutions();
  const navigate = useNavigate();
  return (
    <div className="flex h-13 shrink-0 items-center px-2">
      <Menu>
        <MenuTrigger className="flex h-9 min-w-0 flex-1 items-center gap-2 rounded-md px-2 text-left outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring">
          <Avatar id={institution.id} name={institution.name} src={institution.picture ?? null} size="sm" />
          <span className="min-w-0 flex-1 truncate text-[15px] font-semibold">{institution.name}</span>
          <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden />
        </MenuTrigger>
        <MenuContent align="start" className="w-64">
          <MenuLabel>Workspaces</MenuLabel>
          {(institutions ?? []).map((i) => (
            <MenuItem
              key={i.id}
              icon={<Avatar id={i.id} name={i.name} src={i.picture ?? null} size="xs" />}
              onSelect={() => void navigate(`/client/${i.id}`)}
              className={cn(i.id === institution.id && 'font-semibold')}
            >
              {i.name}
            </MenuItem>
          ))}
          <MenuItem icon={<Building2 />} onSelect={() => void navigate('/join')}>
            Create or join a workspace
          </MenuItem>
          <MenuSeparator />
          <MenuItem icon={<UserPlus />} onSelect={onInvite}>
            Invite people
          </MenuItem>
          {/* Spec §5–§6: the workspace's own settings are for owners and admins (decision 0054). */}
          {isWorkspaceAdminRole(me.role as WorkspaceRole) ? (
            <MenuItem
              icon={<SlidersHorizontal />}
              onSelect={() => void navigate(`/client/${institution.id}/settings/workspace`)}
            >
              Workspace settings
            </MenuItem>
          ) : null}
          <MenuItem icon={<User />} onSelect={() => void navigate(`/client/${institution.id}/profile`)}>
            Profile
          </MenuItem>
          <MenuItem icon={<Settings />} onSelect={() => void navigate(`/client/${institution.id}/settings`)}>
            Settings
          </MenuItem>
          <MenuSeparator />
          <MenuItem icon={<DoorOpen />} destructive onSelect={onLeave}>
            Leave {institution.name}
          </MenuItem>
          <MenuItem icon={<LogOut />} onSelect={() => void logout(navigate)}>
            Sign out
          </MenuItem>
        </MenuContent>
      </Menu>
    </div>
  );
});

function Section({
  title,
  actions,
  children,
}: {
  title: string;
  actions: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section className="mt-3 first:mt-1" aria-label={title}>
      <div className="group flex h-7 items-center justify-between pr-1 pl-2">
        <h2 className="text-xs font-semibold tracking-wide text-muted">{title}</h2>
        <div className="flex items-center gap-0.5">{actions}</div>
      </div>
      <ul className="flex flex-col gap-px">{children}</ul>
    </section>
  );
}

function EmptyHint({ onClick, children }: { onClick: () => void; children: React.ReactNode }) {
  return (
    <li>
      <button
        type="button"
        onClick={onClick}
        className="flex h-8 w-full items-center gap-2 rounded-md px-2 text-[13px] text-muted hover:bg-hover hover:text-fg"
      >
        <Plus className="size-3.5" aria-hidden />
        {children}
      </button>
    </li>
  );
}

const itemClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex h-8 items-center gap-2 rounded-md px-2 text-[14px] text-fg/85 outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring md:h-7 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted',
    isActive && 'bg-selected font-medium text-fg',
  );

const SidebarLink = memo(function SidebarLink({
  to,
  icon,
  label,
  count,
  quiet,
}: {
  to: string;
  icon: React.ReactNode;
  label: string;
  count?: number | undefined;
  quiet?: boolean;
}) {
  return (
    <NavLink to={to} className={itemClass}>
      {icon}
      <span className="min-w-0 flex-1 truncate">{label}</span>
      {count ? (
        <span className={cn('text-xs tabular-nums', quiet ? 'text-muted' : 'font-semibold')}>{count}</span>
      ) : null}
    </NavLink>
  );
});

/**
 * The count is read here, not by the sidebar: it changes on the first key typed in an empty composer and
 * again on the send, and read by the sidebar it rendered every channel row and menu both times.
 */
const DraftsLink = memo(function DraftsLink({
  base,
  institutionId,
}: {
  base: string;
  institutionId: string;
}) {
  const count = useDraftCount(institutionId);
  return <SidebarLink to={`${base}/drafts`} icon={PEN_LINE} label="Drafts" count={count} quiet />;
});

function ChannelLink({
  base,
  channel,
  title,
  icon,
  unread,
}: {
  base: string;
  channel: ChannelFields;
  title: string;
  icon: React.ReactNode;
  unread: number;
}) {
  return (
    <li>
      <NavLink
        to={`${base}/channel/${channel.id}`}
        className={(state) => cn(itemClass(state), unread > 0 && 'font-semibold text-fg')}
        aria-label={unread > 0 ? `${title}, ${unread} unread` : title}
      >
        {icon}
        <span className="min-w-0 flex-1 truncate">{title}</span>
        {unread > 0 ? (
          <span
            className="min-w-5 rounded-full bg-accent px-1.5 text-center text-[11px] leading-[18px] font-semibold text-white tabular-nums"
            data-testid="unread-count"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </NavLink>
    </li>
  );
}

const SidebarFooter = memo(function SidebarFooter() {
  const { institution, me, membersById } = useWorkspace();
  const self = membersById.get(me.id) ?? me;
  return (
    <div className="flex shrink-0 items-center gap-2 border-t border-line px-3 py-2">
      <NavLink
        to={`/client/${institution.id}/profile`}
        className="flex min-w-0 flex-1 items-center gap-2 rounded-md p-1 hover:bg-hover"
      >
        {/* Named by what it shows, with what it opens first: an aria-label would hide the name and the
            connection word it shows (WCAG 2.5.3, label in name). */}
        <span className="sr-only">Your profile: </span>
        <Avatar id={self.id} name={self.name || self.email} src={self.profileImage} size="sm" />
        <span className="flex min-w-0 flex-col leading-tight">
          <span className="truncate text-[13px] font-medium">{self.name || self.email}</span>
          <ConnectionDot />
        </span>
      </NavLink>
    </div>
  );
});
