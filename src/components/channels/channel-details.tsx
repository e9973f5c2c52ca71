// Channel details, opened from the channel header: About (rename, delete, leave), Members, Roles and
// Requests for managers, and Notifications (mute, and the channel's push level). A side panel on desktop, the whole screen on phones.
import { Bell, BellOff, Hash, Lock, LogOut, Pencil, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ChannelFields } from '../../../schemas/collections.ts';
import type {
  ChannelMemberEntry,
  ChannelPushLevel,
  ChannelRequest,
  ChannelRole,
} from '../../../schemas/protocol/index.ts';
import { errorMessage, notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useChannelMembersOf } from '../../data/channel-members.ts';
import { useChannelRequests } from '../../data/channel-requests.ts';
import { useChannelRoles } from '../../data/channel-roles.ts';
import {
  deleteChannel,
  leaveChannel,
  renameChannel,
  setChannelMuted,
  useChannelPermissions,
  useMyChannelMembership,
} from '../../data/channels.ts';
import { requireClient } from '../../data/client.ts';
import { loadPushLevel, savedPushLevel, setPushLevel } from '../../data/push.ts';
import type { ChannelAccess } from '../../store/channel-access.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { Sheet } from '../ui/sheet.tsx';
import { SwitchRow } from '../ui/switch.tsx';
import { ChannelMembersTab } from './channel-members-tab.tsx';
import { ChannelNameField, channelNameProblem } from './channel-name-field.tsx';
import { ChannelRequestsTab } from './channel-requests-tab.tsx';
import { ChannelRolesTab } from './channel-roles-tab.tsx';
import { DescribeChannelDialog } from './describe-channel-dialog.tsx';

export type DetailsTab = 'about' | 'members' | 'roles' | 'requests' | 'notifications';

export function ChannelDetails({
  channel,
  open,
  onOpenChange,
  tab,
  onTabChange,
}: {
  channel: ChannelFields;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tab: DetailsTab;
  onTabChange: (tab: DetailsTab) => void;
}) {
  const Icon = channel.type === 'private' ? Lock : Hash;
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title={channel.name}
      icon={<Icon />}
      description={channel.type === 'private' ? 'Private channel' : 'Public channel'}
      showDescription
    >
      {open ? (
        <DetailsBody
          channel={channel}
          tab={tab}
          onTabChange={onTabChange}
          onClose={() => onOpenChange(false)}
        />
      ) : null}
    </Sheet>
  );
}

function DetailsBody({
  channel,
  tab,
  onTabChange,
  onClose,
}: {
  channel: ChannelFields;
  tab: DetailsTab;
  onTabChange: (tab: DetailsTab) => void;
  onClose: () => void;
}) {
  const { institution } = useWorkspace();
  const access = useChannelPermissions(channel.id);
  const roles = useChannelRoles(channel.id);
  const views = useChannelMembersOf(institution.id, channel.id);
  const entries = useMemo<ChannelMemberEntry[] | undefined>(
    () => views?.flatMap((v) => (v.member ? [{ channelMember: v.channelMember, member: v.member }] : [])),
    [views],
  );
  const manages = access?.canManage === true;
  const props = { channel, tab, onTabChange, onClose, access, roles: roles ?? [], entries };
  if (manages && channel.type === 'private') return <WithRequests {...props} />;
  return <DetailsTabs {...props} requests={undefined} />;
}

/** Only managers of private channels fetch join requests. */
function WithRequests(props: Omit<DetailsTabsProps, 'requests'>) {
  const { institution } = useWorkspace();
  const requests = useChannelRequests(institution.id, props.channel.id);
  return <DetailsTabs {...props} requests={requests} />;
}

interface DetailsTabsProps {
  channel: ChannelFields;
  tab: DetailsTab;
  onTabChange: (tab: DetailsTab) => void;
  onClose: () => void;
  access: ChannelAccess | undefined;
  roles: ChannelRole[];
  entries: ChannelMemberEntry[] | undefined;
  requests: ChannelRequest[] | undefined;
}

function DetailsTabs({
  channel,
  tab,
  onTabChange,
  onClose,
  access,
  roles,
  entries,
  requests,
}: DetailsTabsProps) {
  const manages = access?.canManage === true;
  const pendingCount = requests?.filter((r) => r.status === 'pending').length ?? 0;

  const tabs: { id: DetailsTab; label: string; badge?: number }[] = [
    { id: 'about', label: 'About' },
    { id: 'members', label: 'Members', badge: entries?.length },
    ...(manages ? [{ id: 'roles' as const, label: 'Roles' }] : []),
    ...(manages && channel.type === 'private'
      ? [{ id: 'requests' as const, label: 'Requests', badge: pendingCount }]
      : []),
    { id: 'notifications', label: 'Notifications' },
  ];
  const current = tabs.some((t) => t.id === tab) ? tab : 'about';

  return (
    <Tabs.Root
      value={current}
      onValueChange={(v) => onTabChange(v as DetailsTab)}
      className="flex min-h-0 flex-1 flex-col"
    >
      <Tabs.List
        className="flex shrink-0 gap-1 overflow-x-auto border-b border-line px-3"
        aria-label="Channel details"
      >
        {tabs.map((t) => (
          <Tabs.Trigger
            key={t.id}
            value={t.id}
            className="-mb-px flex h-10 shrink-0 items-center gap-1.5 border-b-2 border-transparent px-2 text-[13px] font-medium text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:border-accent data-[state=active]:text-fg"
          >
            {t.label}
            {t.badge ? (
              <span
                className={
                  t.id === 'requests'
                    ? 'rounded-full bg-accent px-1.5 text-[11px] leading-4 font-semibold text-white tabular-nums'
                    : 'text-xs text-faint tabular-nums'
                }
              >
                {t.badge}
              </span>
            ) : null}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value="about" className="min-h-0 flex-1 overflow-y-auto outline-none">
        <AboutTab channel={channel} access={access} memberCount={entries?.length} onClose={onClose} />
      </Tabs.Content>
      <Tabs.Content value="members" className="flex min-h-0 flex-1 flex-col outline-none">
        {access ? (
          <ChannelMembersTab channel={channel} entries={entries} roles={roles} permissions={access} />
        ) : null}
      </Tabs.Content>
      {manages ? (
        <Tabs.Content value="roles" className="flex min-h-0 flex-1 flex-col outline-none">
          <ChannelRolesTab channel={channel} roles={roles} entries={entries} />
        </Tabs.Content>
      ) : null}
      {manages ? (
        <Tabs.Content value="requests" className="flex min-h-0 flex-1 flex-col outline-none">
          <ChannelRequestsTab requests={requests} />
        </Tabs.Content>
      ) : null}
      <Tabs.Content value="notifications" className="min-h-0 flex-1 overflow-y-auto px-4 py-2 outline-none">
        <NotificationsTab channel={channel} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

function AboutTab({
  channel,
  access,
  memberCount,
  onClose,
}: {
  channel: ChannelFields;
  access: ChannelAccess | undefined;
  memberCount: number | undefined;
  onClose: () => void;
}) {
  const { institution, membersById } = useWorkspace();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);
  const [describing, setDescribing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const creator = channel.createdBy ? membersById.get(channel.createdBy) : undefined;
  const created = new Date(channel.createdAt).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });

  async function leave() {
    try {
      await leaveChannel(institution.id, channel.id);
      onClose();
      void navigate(`/client/${institution.id}`);
    } catch (error) {
      notifyError(error);
    }
  }

  return (
    <div className="flex flex-col gap-4 px-4 py-4">
      <dl className="divide-y divide-line rounded-lg border border-line">
        <Fact label="Name">
          <span className="flex items-center justify-between gap-2">
            <span className="truncate">#{channel.name}</span>
            {access?.canManage && !channel.isDefault ? (
              <Button size="xs" variant="ghost" onClick={() => setRenaming(true)}>
                <Pencil aria-hidden />
                Rename
              </Button>
            ) : null}
          </span>
        </Fact>
        {channel.type !== 'direct_message' && (channel.description || access?.canManage) ? (
          <Fact label="Description">
            <span className="flex items-start justify-between gap-2">
              <span className={cn('break-words whitespace-pre-line', !channel.description && 'text-muted')}>
                {channel.description || 'None yet'}
              </span>
              {access?.canManage ? (
                <Button size="xs" variant="ghost" onClick={() => setDescribing(true)}>
                  <Pencil aria-hidden />
                  {channel.description ? 'Edit' : 'Add'}
                </Button>
              ) : null}
            </span>
          </Fact>
        ) : null}
        <Fact label="Type">
          {channel.type === 'private'
            ? 'Private — only members can see it'
            : channel.isDefault
              ? 'Public — everyone in the workspace is here'
              : 'Public — anyone in the workspace can join'}
        </Fact>
        {memberCount !== undefined ? (
          <Fact label="Members">{`${memberCount} ${memberCount === 1 ? 'person' : 'people'}`}</Fact>
        ) : null}
        <Fact label="Created">{creator ? `${created} by ${creator.name || creator.email}` : created}</Fact>
      </dl>
      <div className="flex flex-col gap-2">
        {!channel.isDefault ? (
          <Button variant="outline" className="justify-start" onClick={() => void leave()}>
            <LogOut aria-hidden />
            Leave channel
          </Button>
        ) : null}
        {access?.canManage && !channel.isDefault ? (
          <Button variant="outline" className="justify-start text-danger" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden />
            Delete channel
          </Button>
        ) : null}
      </div>
      <RenameDialog channel={channel} open={renaming} onOpenChange={setRenaming} />
      <DescribeChannelDialog channel={channel} open={describing} onOpenChange={setDescribing} />
      <Dialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete #${channel.name}?`}
        description="Its messages are removed for everyone. This cannot be undone."
      >
        <div className="flex justify-end gap-2 pt-3">
          <Button variant="ghost" onClick={() => setDeleting(false)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              setDeleting(false);
              deleteChannel(institution.id, channel.id)
                .then(() => {
                  onClose();
                  void navigate(`/client/${institution.id}`);
                })
                .catch(notifyError);
            }}
          >
            Delete channel
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="px-3 py-2.5">
      <dt className="text-xs font-medium text-muted">{label}</dt>
      <dd className="mt-0.5 text-sm">{children}</dd>
    </div>
  );
}

function RenameDialog({
  channel,
  open,
  onOpenChange,
}: {
  channel: ChannelFields;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { institution } = useWorkspace();
  const [name, setName] = useState(channel.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    if (channelNameProblem(name)) return;
    setBusy(true);
    setError(null);
    try {
      await renameChannel(institution.id, channel.id, name.trim());
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Rename channel">
      <form onSubmit={submit} className="flex flex-col gap-4 pt-2" noValidate>
        <ChannelNameField id={`${id}-name`} value={name} onChange={setName} error={error} autoFocus />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const LEVELS: { level: ChannelPushLevel; label: string; description: string }[] = [
  { level: 'all', label: 'All new messages', description: 'A push for every message in this channel.' },
  {
    level: 'mentions',
    label: 'Mentions only',
    description: 'When someone mentions you, your role or group, @everyone or @here, or replies to you.',
  },
  { level: 'nothing', label: 'Nothing', description: 'No push notifications from this channel.' },
];

function NotificationsTab({ channel }: { channel: ChannelFields }) {
  const { institution } = useWorkspace();
  const membership = useMyChannelMembership(channel.id);
  const muted = membership?.muted === true;
  const isDirect = (channel.directMessageMembers?.length ?? 0) > 0;
  const [level, setLevel] = useState<ChannelPushLevel>(() => savedPushLevel(channel.id, isDirect));
  const [saving, setSaving] = useState(false);
  // The level may have been set on another device: the server's answer replaces the remembered one
  // (unless the person picked one meanwhile).
  const picked = useRef(false);
  useEffect(() => {
    let stale = false;
    void requireClient()
      .then(({ http }) => loadPushLevel(http, channel.id, isDirect))
      .then((level) => {
        if (!stale && !picked.current) setLevel(level);
      })
      .catch((error: unknown) => console.info('Push level not read', error));
    return () => {
      stale = true;
    };
  }, [channel.id, isDirect]);
  const choose = (next: ChannelPushLevel) => {
    picked.current = true;
    setSaving(true);
    void requireClient()
      .then(({ http }) => setPushLevel(http, institution.id, channel.id, next))
      .then(setLevel)
      .catch(notifyError)
      .finally(() => setSaving(false));
  };
  return (
    <div className="flex flex-col">
      <div className="flex items-center gap-3 py-3 text-[13px] text-muted">
        {muted ? <BellOff className="size-4" aria-hidden /> : <Bell className="size-4" aria-hidden />}
        {muted
          ? 'Muted: new messages raise the unread count but send no notifications.'
          : 'You are notified of new messages in this channel.'}
      </div>
      <div className="rounded-lg border border-line px-4">
        <SwitchRow
          label="Mute channel"
          description="No push notifications or sounds from this channel."
          checked={muted}
          disabled={!membership}
          onCheckedChange={(checked) =>
            void setChannelMuted(institution.id, channel.id, checked).catch(notifyError)
          }
        />
      </div>
      <fieldset className="mt-4" disabled={saving || !membership || muted}>
        <legend className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
          Push notifications
        </legend>
        <p className="mb-2 text-[13px] text-muted">
          {muted
            ? 'Unmute the channel to choose what reaches your devices.'
            : 'What reaches your devices from this channel when you are not reading it.'}
        </p>
        <div className="divide-y divide-line rounded-lg border border-line">
          {LEVELS.map((option) => (
            <label
              key={option.level}
              className="flex cursor-pointer items-start gap-3 px-4 py-3 has-disabled:cursor-default has-disabled:opacity-60"
            >
              <input
                type="radio"
                name={`push-level-${channel.id}`}
                value={option.level}
                checked={level === option.level}
                onChange={() => choose(option.level)}
                className="mt-0.5 size-4 shrink-0 accent-[var(--accent)]"
              />
              <span className="min-w-0">
                <span className="block text-sm font-medium">{option.label}</span>
                <span className="block text-[13px] text-muted">{option.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
