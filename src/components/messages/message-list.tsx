// The channel's message list: virtualised (react-virtuoso), anchored to the newest message, with day
// separators and older pages loaded when the top is reached.
import { Hash } from 'lucide-react';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useChannelPermissions } from '../../data/channels.ts';
import { refreshMembers } from '../../data/members.ts';
import { loadOlderMessages } from '../../data/messages.ts';
import { useSettings } from '../../data/settings.ts';
import { useFirstScreen } from '../../first-screen/capture.ts';
import { announceRowsPainted } from '../../first-screen/rows-painted.ts';
import { Spinner } from '../ui/states.tsx';
import { continuesGroup, startsNewDay } from './day.ts';
import { DaySeparator, MessageRow } from './message-row.tsx';

/**
 * Virtuoso keeps the scroll position only if firstItemIndex moves with the first item: down by the number
 * prepended when older messages are shown, up by the number dropped when the window is cut back.
 */
const FIRST_INDEX = 1_000_000_000;

function useFirstItemIndex(messages: readonly MessageDoc[]): number {
  const state = useRef<{ shown: readonly MessageDoc[]; index: number }>({ shown: [], index: FIRST_INDEX });
  const previous = state.current.shown;
  const first = messages[0]?.genId;
  if (first !== previous[0]?.genId) {
    const previousFirst = previous[0]?.genId;
    const prepended = previousFirst ? messages.findIndex((m) => m.genId === previousFirst) : -1;
    const dropped = prepended > 0 ? -1 : previous.findIndex((m) => m.genId === first);
    if (prepended > 0) state.current.index -= prepended;
    else if (dropped > 0) state.current.index += dropped;
  }
  state.current.shown = messages;
  return state.current.index;
}

/**
 * Someone who joined after the directory was loaded writes: fetch the directory again so their name
 * shows instead of 'Unknown member'. Each unknown id is asked about once per list.
 */
function useKnownAuthors(
  institutionId: string,
  messages: readonly MessageDoc[],
  known: ReadonlyMap<string, unknown>,
) {
  const asked = useRef(new Set<string>());
  const unknown = [...new Set(messages.map((m) => m.memberId))].filter(
    (id) => id && !known.has(id) && !asked.current.has(id),
  );
  const key = unknown.sort().join(',');
  useEffect(() => {
    if (!key || known.size === 0) return;
    for (const id of key.split(',')) asked.current.add(id);
    void refreshMembers(institutionId).catch(() => {});
  }, [key, known.size, institutionId]);
}

export interface MessageListProps {
  channelId: string;
  /** The newest messages stored for the channel (a window of them, see src/store/message-window.ts). */
  messages: MessageDoc[];
  /** Older messages are stored on this device below the window. */
  hasOlderStored: boolean;
  /** Widens the window by a page. */
  onShowOlder: () => void;
  intro: { title: string; isDirect: boolean };
}

export function MessageList({ channelId, messages, hasOlderStored, onShowOlder, intro }: MessageListProps) {
  const { institution, me, membersById } = useWorkspace();
  const settings = useSettings();
  const access = useChannelPermissions(channelId);
  // Replies show their original: look it up by server id among the loaded messages.
  const byId = useMemo(
    () => new Map(messages.flatMap((m) => (m.id ? [[m.id, m] as const] : []))),
    [messages],
  );
  const firstItemIndex = useFirstItemIndex(messages);
  useKnownAuthors(institution.id, messages, membersById);
  const [older, setOlder] = useState<{ loading: boolean; hasMore: boolean }>({
    loading: false,
    hasMore: true,
  });
  const loading = useRef(false);

  const loadOlder = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    setOlder((s) => ({ ...s, loading: true }));
    try {
      const { hasMore } = await loadOlderMessages(institution.id, channelId);
      setOlder({ loading: false, hasMore });
      // The page arrived below the window: widen it to show them.
      onShowOlder();
    } catch {
      // Offline: what is stored is all there is for now; the top stays a quiet place to try again.
      setOlder({ loading: false, hasMore: false });
    } finally {
      loading.current = false;
    }
  }, [institution.id, channelId, onShowOlder]);

  // The boot script's picture of this screen goes once the real rows are painted; a new one is taken.
  const firstScreen = useFirstScreen();
  const isEmpty = messages.length === 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only whether the list is empty matters
  useEffect(() => {
    if (isEmpty) firstScreen.painted();
  }, [isEmpty]);

  const last = messages[messages.length - 1];
  const lastIsMine = last?.memberId === me.id && last.status !== 'confirmed';

  return (
    <Virtuoso
      className="min-h-0 flex-1"
      data={messages}
      firstItemIndex={firstItemIndex}
      initialTopMostItemIndex={Math.max(0, messages.length - 1)}
      alignToBottom
      // Stay at the newest message when already there, and always after sending one.
      followOutput={(atBottom) => (atBottom || lastIsMine ? 'auto' : false)}
      atTopThreshold={200}
      startReached={() => {
        if (hasOlderStored) onShowOlder();
        else if (older.hasMore) void loadOlder();
      }}
      increaseViewportBy={{ top: 600, bottom: 300 }}
      itemsRendered={(items) => {
        if (items.length === 0) return;
        firstScreen.painted();
        announceRowsPainted();
      }}
      computeItemKey={(_, message) => message.genId}
      context={{ older, hasOlderStored, intro } satisfies ListContext}
      components={{ Header: ListHeader, Footer: ListFooter }}
      itemContent={(index, message) => {
        const previous = messages[index - firstItemIndex - 1];
        const newDay = startsNewDay(previous, message);
        return (
          <Fragment>
            {newDay ? <DaySeparator date={new Date(message.createdAt)} /> : null}
            <MessageRow
              message={message}
              author={membersById.get(message.memberId)}
              compact={!newDay && continuesGroup(previous, message)}
              showAvatar={settings.showAuthorAvatarInMessages}
              replied={message.replyTo ? byId.get(message.replyTo) : undefined}
              meId={me.id}
              canDeleteAny={access?.canDeleteMessage ?? false}
              canPin={access?.canPinMessage ?? false}
              isOwner={access?.isOwner ?? false}
            />
          </Fragment>
        );
      }}
    />
  );
}

interface ListContext {
  older: { loading: boolean; hasMore: boolean };
  hasOlderStored: boolean;
  intro: { title: string; isDirect: boolean };
}

function ListHeader({ context }: { context?: ListContext }) {
  if (!context) return null;
  if (!context.older.hasMore && !context.hasOlderStored) return <ChannelIntro {...context.intro} />;
  if (context.older.loading) return <Spinner className="p-4" label="Loading older messages" />;
  return <div className="h-4" />;
}

function ListFooter() {
  return <div className="h-3" />;
}

function ChannelIntro({ title, isDirect }: { title: string; isDirect: boolean }) {
  return (
    <div className="px-4 pt-8 pb-3">
      {isDirect ? null : (
        <div className="mb-3 flex size-11 items-center justify-center rounded-xl bg-accent-soft text-accent-fg">
          <Hash className="size-5" aria-hidden />
        </div>
      )}
      <h2 className="text-lg font-semibold">{isDirect ? title : `Welcome to #${title}`}</h2>
      <p className="text-[13px] text-muted">
        {isDirect
          ? `This is the beginning of your conversation with ${title}.`
          : `This is the very beginning of the #${title} channel.`}
      </p>
    </div>
  );
}
