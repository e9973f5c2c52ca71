// Channel view (spec §2): header, virtualised messages and the composer. Opening it resets the
// unread count here and on the server; it is remembered as the workspace's last channel.
import {
  Ban,
  CircleSlash,
  Files,
  Hash,
  Info,
  Lock,
  LogOut,
  MoreHorizontal,
  Pin,
  SearchX,
  Settings2,
  Star,
  Users,
} from 'lucide-react';
import {
  lazy,
  memo,
  type ReactNode,
  type RefObject,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { MessageDoc } from '../../schemas/collections.ts';
import { notFound, ROUTE_ID } from '../app/http-status-error.ts';
import { rememberLastChannel } from '../app/last-channel.ts';
import { useIsDesktop } from '../app/media.ts';
import { notifyError } from '../app/notify.ts';
import { closeChannelNotifications } from '../app/service-worker.ts';
import { usePageTitle } from '../app/title.ts';
import { channelLabel, useWorkspace } from '../app/workspace-context.ts';
import type { DetailsTab } from '../components/channels/channel-details.tsx';
import { ChannelIntro } from '../components/channels/channel-intro.tsx';
import { isAgent } from '../components/messages/agent-badge.tsx';
import { ComposerDisabled, ComposerLoading } from '../components/messages/composer-states.tsx';
import { type Conversation, ConversationContext } from '../components/messages/conversation-context.ts';
import { MessageList } from '../components/messages/message-list.tsx';
import type { MessagePanelTab } from '../components/messages/message-panel.tsx';
import { Button } from '../components/ui/button.tsx';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../components/ui/menu.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { Tooltip } from '../components/ui/tooltip.tsx';
import { MemberAvatar } from '../components/workspace/member-avatar.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { useChannelMembersOf } from '../data/channel-members.ts';
import {
  blockDirectMessage,
  closeChannel,
  leaveChannel,
  openChannel,
  unblockDirectMessage,
  useChannelPermissions,
  useShownChannel,
} from '../data/channels.ts';
import { useMessageWindow } from '../data/messages.ts';
import { visitChannel } from '../data/visits.ts';
import { dismissFirstScreen } from '../first-screen/capture.ts';
import { useAfterFirstRows } from '../first-screen/rows-painted.ts';
import { NO_POST_PERMISSION_REASON } from '../store/channel-access.ts';

/** The editor loads after the first rows are painted: it is the largest part of this screen. */
const Composer = lazy(() =>
  import('../components/messages/composer.tsx').then((m) => ({ default: m.Composer })),
);
// What only a tap opens loads on that tap (or, for the gate, only for a channel the person is not in).
const ChannelDetails = lazy(() =>
  import('../components/channels/channel-details.tsx').then((m) => ({ default: m.ChannelDetails })),
);
const MessagePanel = lazy(() =>
  import('../components/messages/message-panel.tsx').then((m) => ({ default: m.MessagePanel })),
);
const DescribeChannelDialog = lazy(() =>
  import('../components/channels/describe-channel-dialog.tsx').then((m) => ({
    default: m.DescribeChannelDialog,
  })),
);
const ChannelGate = lazy(() =>
  import('../components/channels/channel-gate.tsx').then((m) => ({ default: m.ChannelGate })),
);

export function ChannelScreen() {
  const { channelId = '' } = useParams();
  const location = useLocation();
  const workspace = useWorkspace();
  const institutionId = workspace.institution.id;
  // Not the whole channel: its lastSeq moves with every message, and this screen need not redraw for that.
  const channel = useShownChannel(channelId);
  const access = useChannelPermissions(channelId);
  const navigate = useNavigate();
  const [details, setDetails] = useState<DetailsTab | null>(null);
  const [panel, setPanel] = useState<MessagePanelTab | null>(null);
  // Once opened, a sheet stays mounted so that closing it can animate.
  const detailsUsed = useRef(false);
  const panelUsed = useRef(false);
  if (details !== null) detailsUsed.current = true;
  if (panel !== null) panelUsed.current = true;
  // The editor waits for the first rows; a channel without messages has none to wait for.
  const editorMayLoad = useAfterFirstRows() || channel?.neverUsed === true;
  // A reply or an edit belongs to the channel it was started in: kept with that channel's id.
  const [reply, setReply] = useState<{ channelId: string; message: MessageDoc | null }>({
    channelId,
    message: null,
  });
  const [edit, setEdit] = useState<{ channelId: string; genId: string | null }>({ channelId, genId: null });
  const replyTo = reply.channelId === channelId ? reply.message : null;
  const editing = edit.channelId === channelId ? edit.genId : null;
  // The message list's way to show a message (links, reply quotes): set by the list while it is mounted.
  const revealer = useRef<((messageId: string) => void) | null>(null);
  const conversation = useMemo<Conversation>(
    () => ({
      institutionId,
      channelId,
      replyTo,
      setReplyTo: (message) => setReply({ channelId, message }),
      editing,
      setEditing: (genId) => setEdit({ channelId, genId }),
      jumpTo: (messageId) => revealer.current?.(messageId),
    }),
    [institutionId, channelId, replyTo, editing],
  );
  // Written by the message list as its window changes, read by the composer's Up key: a new row does
  // not re-render this screen.
  const lastOwn = useRef<MessageDoc | null>(null);
  // How many messages were unread when this channel opened here: the list's "New messages" line.
  const [opened, setOpened] = useState<{ channelId: string; unreadBefore: number } | null>(null);
  const lastOwnMessage = useCallback(() => lastOwn.current, []);

  useEffect(() => {
    rememberLastChannel(institutionId, channelId);
    visitChannel(institutionId, channelId);
    closeChannelNotifications(channelId);
    void openChannel(institutionId, channelId).then(
      (opened) => setOpened({ channelId, unreadBefore: opened.unreadBefore }),
      (error: unknown) => console.warn('openChannel', error),
    );
    return () => {
      void closeChannel().catch(() => {});
    };
  }, [institutionId, channelId]);

  const label = channel ? channelLabel(channel, workspace) : null;
  // The top of the history (issue 15 item 3), built from plain values so a new message does not rebuild it.
  const creator = channel?.createdBy ? workspace.membersById.get(channel.createdBy) : undefined;
  const other = label?.otherMemberId ? workspace.membersById.get(label.otherMemberId) : undefined;
  const canAddPeople = access?.canAddMembers === true && channel?.type !== 'direct_message';
  const introType = channel?.type;
  const introTitle = label?.title;
  const createdAt = channel?.createdAt ?? '';
  const isDefault = channel?.isDefault ?? false;
  const otherId = label?.otherMemberId ?? null;
  const creatorName = creator?.name ?? null;
  const otherPicture = other?.profileImage ?? null;
  const description = channel?.description ?? null;
  const canDescribe = access?.canManage === true && channel?.type !== 'direct_message';
  const [describing, setDescribing] = useState(false);
  const intro = useMemo(
    () =>
      introType && introTitle !== undefined ? (
        <ChannelIntro
          type={introType}
          title={introTitle}
          creatorName={creatorName}
          createdAt={createdAt}
          isDefault={isDefault}
          person={otherId ? { id: otherId, src: otherPicture } : undefined}
          onAddPeople={canAddPeople ? () => setDetails('members') : undefined}
          description={description}
          onDescribe={canDescribe ? () => setDescribing(true) : undefined}
        />
      ) : null,
    [
      introType,
      introTitle,
      creatorName,
      createdAt,
      isDefault,
      otherId,
      otherPicture,
      canAddPeople,
      description,
      canDescribe,
    ],
  );
  // No message list to wait for: the boot script's picture of this channel (if any) goes now.
  const noList =
    channel === null || (channel !== undefined && (channel.institutionId !== institutionId || !label));
  useEffect(() => {
    if (noList) dismissFirstScreen();
  }, [noList]);
  usePageTitle(label ? (label.isDirect ? label.title : `#${label.title}`) : null);
  // On a phone the header keeps room for the name: the saved lists move into the options menu.
  const isDesktop = useIsDesktop();

  if (!ROUTE_ID.test(channelId)) throw notFound(location.pathname);
  if (channel === undefined) return <Spinner />;
  // Not in the store: a channel the person is not in, or none at all. The gate asks the server which; a
  // join (or an approved request) brings the channel into the store and this screen shows it.
  if (channel === null) {
    return (
      <Suspense fallback={<Spinner />}>
        <ChannelGate institutionId={institutionId} channelId={channelId} />
      </Suspense>
    );
  }
  if (channel.institutionId !== institutionId || !label) {
    return (
      <EmptyState
        icon={SearchX}
        title="This channel is not available"
        action={
          <Button variant="outline" asChild>
            <Link to={`/client/${institutionId}`}>Back to the workspace</Link>
          </Button>
        }
      >
        It may have been removed, or you are not a member of it.
      </EmptyState>
    );
  }

  const person = label.otherMemberId ? workspace.membersById.get(label.otherMemberId) : undefined;
  const canLeave = !label.isDirect && !channel.isDefault;
  const composerLabel = label.isDirect ? `Message ${label.title}` : `Message #${channel.name}`;
  const savedButtons = (
    <>
      <Tooltip content="Pinned messages">
        <Button variant="ghost" size="icon" aria-label="Pinned messages" onClick={() => setPanel('pinned')}>
          <Pin />
        </Button>
      </Tooltip>
      <Tooltip content="Starred messages">
        <Button variant="ghost" size="icon" aria-label="Starred messages" onClick={() => setPanel('starred')}>
          <Star />
        </Button>
      </Tooltip>
      <Tooltip content="Files">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Files in this channel"
          onClick={() => setPanel('files')}
        >
          <Files />
        </Button>
      </Tooltip>
    </>
  );

  const savedItems = (
    <>
      <MenuItem icon={<Pin />} onSelect={() => setPanel('pinned')}>
        Pinned messages
      </MenuItem>
      <MenuItem icon={<Star />} onSelect={() => setPanel('starred')}>
        Starred messages
      </MenuItem>
      <MenuItem icon={<Files />} onSelect={() => setPanel('files')}>
        Files in this channel
      </MenuItem>
      <MenuSeparator />
    </>
  );

  async function leave() {
    try {
      await leaveChannel(institutionId, channelId);
      void navigate(`/client/${institutionId}`);
    } catch (error) {
      notifyError(error);
    }
  }

  return (
    <ConversationContext.Provider value={conversation}>
      <div className="flex min-h-0 flex-1 flex-col">
        <ScreenHeader
          title={label.isDirect ? label.title : channel.name}
          icon={
            label.isDirect ? (
              <MemberAvatar
                member={person}
                id={label.otherMemberId ?? channel.id}
                name={label.title}
                src={person?.profileImage}
                size="sm"
              />
            ) : channel.type === 'private' ? (
              <Lock />
            ) : (
              <Hash />
            )
          }
          // An agent's address is a placeholder nobody can write to: say what it is instead.
          subtitle={
            label.isDirect
              ? isAgent(person)
                ? 'AI agent'
                : person?.email
              : (channel.description ?? undefined)
          }
          actions={
            label.isDirect ? (
              label.isSelf ? (
                savedButtons
              ) : (
                <>
                  {isDesktop ? savedButtons : null}
                  <Menu>
                    <MenuTrigger asChild>
                      <Button variant="ghost" size="icon" aria-label="Conversation options">
                        <MoreHorizontal />
                      </Button>
                    </MenuTrigger>
                    <MenuContent align="end">
                      {isDesktop ? null : savedItems}
                      {access?.blockedByMe ? (
                        <MenuItem
                          icon={<CircleSlash />}
                          onSelect={() =>
                            void unblockDirectMessage(institutionId, channelId).catch(notifyError)
                          }
                        >
                          Unblock {label.title}
                        </MenuItem>
                      ) : (
                        <MenuItem
                          icon={<Ban />}
                          destructive
                          onSelect={() =>
                            void blockDirectMessage(institutionId, channelId).catch(notifyError)
                          }
                        >
                          Block {label.title}
                        </MenuItem>
                      )}
                    </MenuContent>
                  </Menu>
                </>
              )
            ) : (
              <>
                {isDesktop ? savedButtons : null}
                <MembersButton
                  institutionId={institutionId}
                  channelId={channelId}
                  onClick={() => setDetails('members')}
                />
                {isDesktop ? (
                  <Tooltip content="Channel details">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label="Channel details"
                      onClick={() => setDetails('about')}
                    >
                      <Info />
                    </Button>
                  </Tooltip>
                ) : null}
                <Menu>
                  <MenuTrigger asChild>
                    <Button variant="ghost" size="icon" aria-label="Channel options">
                      <MoreHorizontal />
                    </Button>
                  </MenuTrigger>
                  <MenuContent align="end">
                    {isDesktop ? null : savedItems}
                    <MenuItem icon={<Info />} onSelect={() => setDetails('about')}>
                      Channel details
                    </MenuItem>
                    {access?.canManage ? (
                      <MenuItem icon={<Settings2 />} onSelect={() => setDetails('roles')}>
                        Roles and permissions
                      </MenuItem>
                    ) : null}
                    {canLeave ? (
                      <>
                        <MenuSeparator />
                        <MenuItem icon={<LogOut />} destructive onSelect={() => void leave()}>
                          Leave #{channel.name}
                        </MenuItem>
                      </>
                    ) : null}
                  </MenuContent>
                </Menu>
              </>
            )
          }
        />
        <ChannelMessages
          channelId={channelId}
          meId={workspace.me.id}
          label={
            label.isSelf
              ? 'Your notes'
              : label.isDirect
                ? `Messages with ${label.title}`
                : `Messages in #${channel.name}`
          }
          intro={intro}
          neverUsed={channel.neverUsed}
          hash={location.hash.slice(1)}
          linkFollowed={location.key}
          revealer={revealer}
          lastOwn={lastOwn}
          unreadBefore={opened?.channelId === channelId ? opened.unreadBefore : undefined}
        />
        {access === undefined ? null : access.canPost ? (
          <Suspense fallback={<ComposerLoading label={composerLabel} />}>
            {editorMayLoad ? (
              <Composer
                key={channelId}
                institutionId={institutionId}
                channelId={channelId}
                label={composerLabel}
                lastOwnMessage={lastOwnMessage}
              />
            ) : (
              <ComposerLoading label={composerLabel} />
            )}
          </Suspense>
        ) : (
          <ComposerDisabled reason={access.cannotPostReason ?? NO_POST_PERMISSION_REASON} />
        )}
        {panelUsed.current ? (
          <Suspense fallback={null}>
            <MessagePanel
              institutionId={institutionId}
              channelId={channelId}
              title={label.isDirect ? label.title : `#${channel.name}`}
              tab={panel}
              onTabChange={setPanel}
              onClose={() => setPanel(null)}
            />
          </Suspense>
        ) : null}
        {label.isDirect || !detailsUsed.current ? null : (
          <Suspense fallback={null}>
            <ChannelDetails
              channel={channel}
              open={details !== null}
              onOpenChange={(open) => setDetails(open ? (details ?? 'about') : null)}
              tab={details ?? 'about'}
              onTabChange={setDetails}
            />
          </Suspense>
        )}
        {describing && !label.isDirect ? (
          <Suspense fallback={null}>
            <DescribeChannelDialog channel={channel} open={describing} onOpenChange={setDescribing} />
          </Suspense>
        ) : null}
      </div>
    </ConversationContext.Provider>
  );
}

/**
 * The channel's rows: the only part of the screen that reads the message window, so a new row (the echo
 * of Enter, someone else's message) re-renders the list and not the header, composer and panels.
 */
const ChannelMessages = memo(function ChannelMessages({
  channelId,
  meId,
  label,
  intro,
  neverUsed,
  hash,
  linkFollowed,
  revealer,
  lastOwn,
  unreadBefore,
}: {
  channelId: string;
  meId: string;
  /** The feed's name for assistive technology. */
  label: string;
  /** The top of the history (channel-intro.tsx), memoised by the screen. */
  intro: ReactNode;
  /** No message was ever sent here (the channel's lastSentMessage is null). */
  neverUsed: boolean;
  /** A link to a message (#id, from search, activity or a saved list): shown once the list is there. */
  hash: string;
  /** Changes with each navigation: the same link followed again (a pinned message clicked twice) shows it again. */
  linkFollowed: string;
  revealer: RefObject<((messageId: string) => void) | null>;
  lastOwn: { current: MessageDoc | null };
  /** Unread here when the channel opened; undefined until the opening answers. */
  unreadBefore: number | undefined;
}) {
  const messageWindow = useMessageWindow(channelId);
  const messages = messageWindow?.messages;
  const loaded = messages !== undefined;
  // The list (a child) has given its way to show a message by the time this effect runs.
  // biome-ignore lint/correctness/useExhaustiveDependencies: linkFollowed is the navigation to show it again
  useEffect(() => {
    if (hash && loaded) revealer.current?.(hash);
  }, [hash, loaded, revealer, linkFollowed]);
  lastOwn.current = useMemo(() => {
    if (!messages) return null;
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i];
      if (m && m.memberId === meId && m.status === 'confirmed' && m.id) return m;
    }
    return null;
  }, [messages, meId]);
  if (messageWindow === undefined) return <Spinner />;
  return (
    <MessageList
      key={channelId}
      channelId={channelId}
      label={label}
      messages={messageWindow.messages}
      hasOlderStored={messageWindow.hasOlderStored}
      onShowOlder={messageWindow.showOlder}
      intro={intro}
      neverUsed={neverUsed}
      onlyDeleted={messageWindow.onlyDeleted}
      unreadBefore={unreadBefore}
      onReachTo={messageWindow.reachTo}
      reach={messageWindow.reach}
      revealer={revealer}
    />
  );
});

/** The header's people count: opens the Members tab. */
function MembersButton({
  institutionId,
  channelId,
  onClick,
}: {
  institutionId: string;
  channelId: string;
  onClick: () => void;
}) {
  const members = useChannelMembersOf(institutionId, channelId);
  // Zero means the list has not been fetched yet (the caller is always in it).
  const count = members?.length ? members.length : undefined;
  return (
    <Tooltip content="Members">
      <Button
        variant="ghost"
        size="sm"
        className="gap-1 px-2 text-muted hover:text-fg"
        onClick={onClick}
        aria-label={count === undefined ? 'Members' : `${count} ${count === 1 ? 'member' : 'members'}`}
      >
        <Users aria-hidden />
        {count === undefined ? null : <span className="text-[13px] tabular-nums">{count}</span>}
      </Button>
    </Tooltip>
  );
}
