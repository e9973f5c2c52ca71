// The channel's message list: virtualised (react-virtuoso), anchored to the newest message, with day
// separators and older pages loaded when the top is reached.
import { Hash } from 'lucide-react';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { loadOlderMessages, refreshMembers } from '../../data/actions.ts';
import { useChannelPermissions, useSettings } from '../../data/hooks.ts';
import { Spinner } from '../ui/states.tsx';
import { continuesGroup, startsNewDay } from './day.ts';
import { DaySeparator, MessageRow } from './message-row.tsx';

/** Virtuoso keeps the scroll position on prepend only if firstItemIndex drops by the number prepended. */
const FIRST_INDEX = 1_000_000_000;

function useFirstItemIndex(messages: readonly MessageDoc[]): number {
  const state = useRef<{ first: string | undefined; index: number }>({
    first: undefined,
    index: FIRST_INDEX,
  });
  const first = messages[0]?.genId;
  if (first !== state.current.first) {
    const previousFirst = state.current.first;
    const shift = previousFirst ? messages.findIndex((m) => m.genId === previousFirst) : -1;
    if (shift > 0) state.current.index -= shift;
    state.current.first = first;
  }
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
  messages: MessageDoc[];
  intro: { title: string; isDirect: boolean };
}

export function MessageList({ channelId, messages, intro }: MessageListProps) {
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
    } catch {
      // Offline: what is stored is all there is for now; the top stays a quiet place to try again.
      setOlder({ loading: false, hasMore: false });
    } finally {
      loading.current = false;
    }
  }, [institution.id, channelId]);

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
        if (older.hasMore) void loadOlder();
      }}
      increaseViewportBy={{ top: 600, bottom: 300 }}
      computeItemKey={(_, message) => message.genId}
      context={{ older, intro } satisfies ListContext}
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
  intro: { title: string; isDirect: boolean };
}

function ListHeader({ context }: { context?: ListContext }) {
  if (!context) return null;
  if (!context.older.hasMore) return <ChannelIntro {...context.intro} />;
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
