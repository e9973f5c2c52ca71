// The channel's message list: virtualised (react-virtuoso), anchored to the newest message, with day
// separators and older pages loaded when the top is reached. Scrolled up, a "Jump to latest" button
// (with the count of messages that arrived meanwhile) brings the newest back, e.g. after a reconnect.
import { ArrowDown } from 'lucide-react';
import {
  Fragment,
  forwardRef,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { type ListProps, Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useChannelPermissions } from '../../data/channels.ts';
import { useConnection } from '../../data/connection.ts';
import { refreshMembers } from '../../data/members.ts';
import { loadOlderMessages } from '../../data/messages.ts';
import { useSettings } from '../../data/settings.ts';
import { useFirstScreen } from '../../first-screen/capture.ts';
import { announceNoRows, announceRowsPainted, FIRST_ROWS_TIMING } from '../../first-screen/rows-painted.ts';
import { Spinner } from '../ui/states.tsx';
import { continuesGroup, startsNewDay } from './day.ts';
import { newSince } from './jump-to-latest.ts';
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
  /** The top of the channel's history, drawn once nothing older is left (src/components/channels/channel-intro.tsx). */
  intro: ReactNode;
  /** The channel has never had a message: the intro shows at once, with no older page to ask for. */
  neverUsed?: boolean;
  /** Every message the window read is deleted: nothing to show, though the channel was written in. */
  onlyDeleted?: boolean;
}

export function MessageList({
  channelId,
  messages,
  hasOlderStored,
  onShowOlder,
  intro,
  neverUsed = false,
  onlyDeleted = false,
}: MessageListProps) {
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
  // Rows count as painted once they are measured and shown: react-virtuoso's first pass renders one row
  // unmeasured (size 0) and takes it away, and it keeps the measured rows hidden until its scroll to the
  // newest one has settled (seconds on a phone-slow CPU during a first visit). Counted earlier, the picture
  // went and left the channel empty meanwhile, and what waits for the first rows loaded ahead of them.
  const rows = useRef({ measured: false, shown: false });
  const rowsPainted = () => {
    if (!rows.current.measured || !rows.current.shown) return;
    firstScreen.painted();
    announceRowsPainted();
  };
  const isEmpty = messages.length === 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only whether the list is empty matters
  useEffect(() => {
    if (isEmpty) firstScreen.painted();
  }, [isEmpty]);

  // Every message read was deleted: an empty list has no top for react-virtuoso to reach, so older ones
  // are looked for at once, as if it had been reached: the stored ones, then the server's. Once per answer
  // of the window, so a widening that has not answered yet is not asked for again.
  const lookedFrom = useRef<readonly MessageDoc[] | null>(null);
  useEffect(() => {
    if (!onlyDeleted || lookedFrom.current === messages) return;
    lookedFrom.current = messages;
    if (hasOlderStored) onShowOlder();
    else if (older.hasMore) void loadOlder();
  }, [onlyDeleted, messages, hasOlderStored, older.hasMore, onShowOlder, loadOlder]);
  // With no rows and nothing older, the intro is the whole history: nothing is coming to wait for.
  const introOnly = isEmpty && (neverUsed || (!older.hasMore && !hasOlderStored));
  useEffect(() => {
    if (introOnly) announceNoRows();
  }, [introOnly]);

  const last = messages[messages.length - 1];
  // Just sent here: a new last row, mine and not yet confirmed. Others' messages arriving before an older
  // pending one of mine (pending rows sort last) are not a send, and must not pull a reader down.
  const shownLast = useRef<string | undefined>(undefined);
  const justSent =
    last?.memberId === me.id && last.status !== 'confirmed' && last.genId !== shownLast.current;
  useEffect(() => {
    shownLast.current = last?.genId;
  }, [last?.genId]);
  const offline = useConnection().status !== 'connected';

  // What the list held when the person scrolled away from the newest message: anything else is new.
  const list = useRef<VirtuosoHandle>(null);
  const [leftWith, setLeftWith] = useState<ReadonlySet<string> | null>(null);
  const atBottom = leftWith === null;
  const unseen = leftWith ? newSince(messages, leftWith, me.id) : 0;
  const jump = () => {
    list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
    setLeftWith(null);
  };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col" data-message-list>
      <Virtuoso
        ref={list}
        atBottomStateChange={(bottom) => setLeftWith(bottom ? null : new Set(messages.map((m) => m.genId)))}
        atBottomThreshold={80}
        className="min-h-0 flex-1"
        data={messages}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={Math.max(0, messages.length - 1)}
        alignToBottom
        // Stay at the newest message when already there, and always after sending one.
        followOutput={(atBottom) => (atBottom || justSent ? 'auto' : false)}
        atTopThreshold={200}
        startReached={() => {
          if (hasOlderStored) onShowOlder();
          else if (older.hasMore) void loadOlder();
        }}
        increaseViewportBy={{ top: 600, bottom: 300 }}
        itemsRendered={(items) => {
          if (items.length === 0 || items.every((item) => item.size === 0)) return;
          rows.current.measured = true;
          rowsPainted();
        }}
        computeItemKey={(_, message) => message.genId}
        context={
          {
            older,
            hasOlderStored,
            intro,
            empty: neverUsed && messages.length === 0,
            shown: () => {
              rows.current.shown = true;
              rowsPainted();
            },
            follow: atBottom || justSent ? last?.genId : undefined,
          } satisfies ListContext
        }
        components={{ Header: ListHeader, Footer: ListFooter, List: ListRows }}
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
                offline={offline && message.status === 'pending'}
              />
            </Fragment>
          );
        }}
      />
      {atBottom ? null : (
        <button
          type="button"
          onClick={jump}
          className="absolute bottom-3 left-1/2 flex -translate-x-1/2 items-center gap-1.5 rounded-full border border-line-strong bg-surface px-3 py-1.5 text-[12px] font-medium shadow-md hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <ArrowDown className="size-3.5" aria-hidden />
          Jump to latest
          {unseen > 0 ? (
            <span className="rounded-full bg-accent-soft px-1.5 text-[11px] text-accent-fg">
              {unseen} new
            </span>
          ) : null}
        </button>
      )}
    </div>
  );
}

interface ListContext {
  older: { loading: boolean; hasMore: boolean };
  hasOlderStored: boolean;
  /** The top of the channel's history, drawn once nothing older is left (src/components/channels/channel-intro.tsx). */
  intro: ReactNode;
  /** Nothing was ever said here: startReached never fires on an empty list, so the intro cannot wait for it. */
  empty: boolean;
  /** The list's rows became visible (react-virtuoso hides them until its initial scroll has settled). */
  shown: () => void;
  /** The newest message's genId when the list follows it (at the bottom, or just sent here). */
  follow: string | undefined;
}

/**
 * react-virtuoso's element around the rows, rendered after them: it tells the list when react-virtuoso
 * stops hiding them, marks the rows first shown for Element Timing (what waits for them waits until the
 * browser has presented them, rows-painted.ts), and brings a new newest row into view (decision 0069).
 */
const ListRows = forwardRef<HTMLDivElement, ListProps & { context?: ListContext }>(function ListRows(
  { context, ...props },
  ref,
) {
  const element = useRef<HTMLDivElement | null>(null);
  const refs = useCallback(
    (node: HTMLDivElement | null) => {
      element.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref],
  );
  const shown = props.style?.visibility !== 'hidden';
  // A new newest row is brought into view in the frame that draws it. react-virtuoso's own following
  // (followOutput) waits until the row has been measured and scrolls two frames later; meanwhile the row
  // stood below the fold with only its top padding showing (at 4×, 35–80 ms more before it could be read).
  const followed = useRef(context?.follow);
  useLayoutEffect(() => {
    const follow = context?.follow;
    if (!shown || follow === undefined || follow === followed.current) return;
    const list = element.current;
    if (!list?.querySelector(`[data-gen-id="${CSS.escape(follow)}"]`)) return;
    followed.current = follow;
    const scroller = list.closest<HTMLElement>('[data-virtuoso-scroller]');
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the change to shown matters
  useLayoutEffect(() => {
    if (!shown) return;
    // Text is reported for the element that holds it: every element of the rows is marked.
    for (const node of element.current?.querySelectorAll('article, article *') ?? [])
      node.setAttribute('elementtiming', FIRST_ROWS_TIMING);
    context?.shown();
  }, [shown]);
  return <div {...props} ref={refs} />;
});

function ListHeader({ context }: { context?: ListContext }) {
  if (!context) return null;
  if (context.empty || (!context.older.hasMore && !context.hasOlderStored)) return context.intro;
  if (context.older.loading) return <Spinner className="p-4" label="Loading older messages" />;
  return <div className="h-4" />;
}

function ListFooter() {
  return <div className="h-3" />;
}
