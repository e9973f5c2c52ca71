// The channel's message list: the newest rows of the message window in a plain scroller, anchored to the
// newest message, with day separators; more rows, then older pages, as the reader nears the top. Scrolled
// up, a "Jump to latest" button (with the count of messages that arrived meanwhile) brings the newest
// back, e.g. after a reconnect. Not virtualised (decision 0070): a new row is appended and the others
// neither re-render nor move, and the rows drawn are the ones near the reader.
import { ArrowDown } from 'lucide-react';
import {
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useChannelPermissions } from '../../data/channels.ts';
import { useConnection } from '../../data/connection.ts';
import { beginningReached } from '../../data/history-beginning.ts';
import { refreshMembers } from '../../data/members.ts';
import { loadOlderMessages } from '../../data/messages.ts';
import { useSettings } from '../../data/settings.ts';
import { useFirstScreen } from '../../first-screen/capture.ts';
import { announceNoRows, announceRowsPainted, FIRST_ROWS_TIMING } from '../../first-screen/rows-painted.ts';
import { Spinner } from '../ui/states.tsx';
import { useArrivalAnnouncer } from './arrival-announcer.ts';
import { useDrawnRows } from './drawn-rows.tsx';
import { newSince } from './jump-to-latest.ts';
import { useLinkedMessage } from './linked-message.ts';
import { useNewMessagesLine } from './new-messages-line.tsx';

/** Within this many pixels of the top, older messages are asked for. */
const AT_TOP_PX = 200;
/** Within this many pixels of the end, the list counts as read to its end and follows new messages. */
const AT_END_PX = 80;
/** The newest rows drawn on the first render: about a tall screen's worth, so a phone paints it soon. */
const FIRST_ROWS = 24;
/**
 * The newest rows drawn once the page is idle, and what the rows drawn are cut back to when the reader
 * returns to the end: about two screens. Every row in the document costs each frame something (its
 * paint and pre-paint are walked), so the list draws the rows near the reader, not the whole window:
 * drawing the window's 200 rows, a new message was painted 5 ms later at the median (at 4×) than with
 * the virtualised list it replaced; with 60, as soon; with 36, 1.5 ms sooner (docs/performance.md).
 */
const DRAWN_ROWS = 36;
/** How many more rows are drawn when the reader nears the top of those drawn. */
const DRAW_STEP = 60;

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
  /** What assistive technology calls the list: "Messages in #general", "Messages with Grace Hopper". */
  label: string;
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
  /** Unread here when the channel opened (undefined until known): the "New messages" line's place. */
  unreadBefore?: number;
  /** Takes the window down to a message's place (a link to it). */
  onReachTo?: (createdSeq: number) => void;
  /** Whether the window reached down as asked (message-window-size.ts). */
  reach?: 'held' | 'tooFar';
  /** Given the list's way to show a message by its server id: links and reply quotes call it. */
  revealer?: RefObject<((messageId: string) => void) | null>;
}

function MessageListView({
  channelId,
  label,
  messages,
  hasOlderStored,
  onShowOlder,
  intro,
  neverUsed = false,
  onlyDeleted = false,
  unreadBefore,
  onReachTo,
  reach,
  revealer,
}: MessageListProps) {
  const { institution, me, membersById } = useWorkspace();
  const firstNew = useNewMessagesLine(messages, me.id, unreadBefore);
  const settings = useSettings();
  const access = useChannelPermissions(channelId);
  // Replies show their original: look it up by server id among the loaded messages.
  const byId = useMemo(
    () => new Map(messages.flatMap((m) => (m.id ? [[m.id, m] as const] : []))),
    [messages],
  );
  useKnownAuthors(institution.id, messages, membersById);
  const [older, setOlder] = useState<{ loading: boolean; hasMore: boolean }>(() => ({
    loading: false,
    hasMore: !beginningReached(channelId),
  }));
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

  // The rows drawn: from `drawnFrom` (a message's genId) to the end, new messages included. At first the
  // newest FIRST_ROWS, then DRAWN_ROWS once the page is idle; more as the reader scrolls up; cut back
  // when they return to the end. The window itself holds more (message-window.ts).
  const [drawnFrom, setDrawnFrom] = useState<string | null>(null);
  const isEmpty = messages.length === 0;
  // The window's rows above the first drawn one (the index of the first drawn).
  let hiddenAbove = drawnFrom === null ? -1 : messages.findIndex((m) => m.genId === drawnFrom);
  if (hiddenAbove < 0)
    hiddenAbove = Math.max(0, messages.length - (drawnFrom === null ? FIRST_ROWS : DRAWN_ROWS));
  const drawnCount = messages.length - hiddenAbove;
  // Older messages asked of the store or the server are drawn in the render that brings them, so that a
  // reader at the very top sees them come above (a first row folding into the one before it would
  // otherwise move its text up, with nothing above to scroll by).
  const [drawOnWiden, setDrawOnWiden] = useState(false);
  if (drawOnWiden && hiddenAbove > 0) {
    setDrawOnWiden(false);
    setDrawnFrom(messages[Math.max(0, hiddenAbove - DRAW_STEP)]?.genId ?? null);
  }
  const drawFrom = (index: number) => {
    const message = messages[Math.max(0, index)];
    if (message) setDrawnFrom(message.genId);
  };
  // Rows near the reader only: back at the end, or following a channel that keeps talking, what was
  // drawn beyond a step more than DRAWN_ROWS is let go (out of sight above the end).
  const letGoAbove = () => {
    if (drawnCount > DRAWN_ROWS + DRAW_STEP) drawFrom(messages.length - DRAWN_ROWS);
  };
  // Scheduled once (renders during a catch-up must not keep putting it off), drawn from the window of then.
  const latest = useRef(messages);
  latest.current = messages;
  useEffect(() => {
    if (isEmpty || drawnFrom !== null) return;
    const draw = () => {
      const now = latest.current;
      const first = now[Math.max(0, now.length - DRAWN_ROWS)];
      if (first) setDrawnFrom(first.genId);
    };
    if (typeof requestIdleCallback !== 'function') {
      const timer = window.setTimeout(draw, 50);
      return () => window.clearTimeout(timer);
    }
    const idle = requestIdleCallback(draw, { timeout: 1000 });
    return () => cancelIdleCallback(idle);
  }, [isEmpty, drawnFrom]);

  // The boot script's picture of this screen goes once the real rows are painted; a new one is taken
  // once they have been still a while, so it is told of every change to them.
  const firstScreen = useFirstScreen();
  const rowsElement = useRef<HTMLDivElement>(null);
  const marked = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: told of every change to the drawn rows
  useLayoutEffect(() => {
    firstScreen.painted();
    if (isEmpty || marked.current) return;
    marked.current = true;
    // The first rows are marked for Element Timing (text is reported for the element that holds it), so
    // what waits for them waits until the browser has presented them (rows-painted.ts).
    for (const node of rowsElement.current?.querySelectorAll('article, article *') ?? [])
      node.setAttribute('elementtiming', FIRST_ROWS_TIMING);
    announceRowsPainted();
  }, [messages, hiddenAbove]);

  // Every message read was deleted: an empty list has no top to reach, so older ones are looked for at
  // once, as if it had been reached: the stored ones, then the server's. Once per answer of the window,
  // so a widening that has not answered yet is not asked for again.
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

  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // Whether the list follows the newest message: it was at its end when last scrolled (or never was).
  const following = useRef(true);
  // Where the list last took itself to its end. Its scroll event can come after more rows were added
  // (before the observer below took it to the new end): a position not above this one is still the
  // list following, not a reader scrolling away.
  const pinnedAt = useRef(0);
  // What the list held when the person scrolled away from the newest message: anything else is new.
  const [leftWith, setLeftWith] = useState<ReadonlySet<string> | null>(null);
  const atBottom = leftWith === null;
  const unseen = leftWith ? newSince(messages, leftWith, me.id) : 0;
  const announcer = useArrivalAnnouncer(
    messages,
    me.id,
    (memberId) => {
      const member = membersById.get(memberId);
      return member?.name || member?.email || 'Someone';
    },
    () => (following.current ? null : unseen),
  );
  // The list keeps its place when its rows or its own height change, from a ResizeObserver: its callback
  // runs after the browser's layout and before the paint, so the geometry read there costs nothing (read
  // after each render, in a layout effect, it laid the page out once more: 7 ms a message at 4×), and
  // what it scrolls is in the frame that draws the change. Following, the list goes to its end. Scrolled
  // up, the first row in view holds the reader's place: the list scrolls by as much as that row's bottom
  // moved (the bottom, so a row folding into the one above it when an older page comes keeps its text
  // still), measured in the content so that a scroll not yet reported is not taken back. The browser's
  // own scroll anchoring is off (not in every browser, and it would move the list twice). The list's own
  // top moving on the screen counts too: the offline banner coming or going above the channel moved the
  // text being read by its height.
  const held = useRef<{ row: Element; bottom: number; top: number } | null>(null);
  const hold = () => {
    const el = scroller.current;
    const row = el && rowsElement.current ? firstRowInView(rowsElement.current, el) : null;
    held.current =
      el && row ? { row, bottom: contentBottom(row, el), top: el.getBoundingClientRect().top } : null;
  };
  // `least`: the smallest move worth a scroll. The scroll handler asks for a whole pixel: a reader's own
  // scroll on a phone (fractional offsets, snapped boxes) may read as a fraction, and writing scrollTop
  // during a fling stops it.
  const keepPlace = (least = 0) => {
    const el = scroller.current;
    if (!el) return;
    if (following.current) {
      if (distanceFromEnd(el) > 1) scrollToEnd(el);
      pinnedAt.current = el.scrollTop;
      letGoAbove();
      return;
    }
    if (held.current?.row.isConnected) {
      const moved =
        contentBottom(held.current.row, el) -
        held.current.bottom +
        (el.getBoundingClientRect().top - held.current.top);
      if (Math.abs(moved) > least) el.scrollTop += moved;
    }
    hold();
  };

  // Near the top, older messages are asked for: once per first row, again after scrolling away and back.
  const askedAt = useRef<string | null>(null);
  const askOlderNearTop = () => {
    const el = scroller.current;
    if (!el || isEmpty || drawnFrom === null) return;
    if (el.scrollTop > AT_TOP_PX) {
      askedAt.current = null;
      return;
    }
    // Once per first row drawn and first row of the window: a widened window is drawn from, too.
    const first = `${messages[hiddenAbove]?.genId}/${messages[0]?.genId}`;
    if (askedAt.current === first) return;
    askedAt.current = first;
    // Rows of the window not drawn yet come first, then the store's, then the server's.
    if (hiddenAbove > 0) drawFrom(hiddenAbove - DRAW_STEP);
    else if (hasOlderStored || older.hasMore) {
      setDrawOnWiden(true);
      if (hasOlderStored) onShowOlder();
      else void loadOlder();
    }
  };

  // Then, with the place kept, whether the top is near: a list too short to scroll, or a reader who
  // was at the top when rows came.
  const onResize = () => {
    keepPlace();
    askOlderNearTop();
  };
  const onResizeLatest = useRef(onResize);
  onResizeLatest.current = onResize;
  // The idle draw may change nothing the observer sees (a channel shorter than a screen draws the same
  // rows), so the top is looked at once it has happened: a short channel otherwise never asked for its
  // older messages, nor showed its beginning.
  const idleDrawn = drawnFrom !== null;
  useEffect(() => {
    if (idleDrawn) onResizeLatest.current();
  }, [idleDrawn]);
  // A layout effect, so that the first notification (every observed element has one) comes before the
  // first paint: the list opens at its end.
  useLayoutEffect(() => {
    const observer = new ResizeObserver(() => onResizeLatest.current());
    if (scroller.current) observer.observe(scroller.current);
    if (rowsElement.current) observer.observe(rowsElement.current);
    // And all that scrolls, so that what comes and goes above the rows (the channel's intro once its
    // beginning is known, the older-page spinner) keeps the place too: the intro coming after a jump to
    // the newest left the list short of its end, with no "Jump to latest" to get there.
    if (content.current) observer.observe(content.current);
    return () => observer.disconnect();
  }, []);
  // A message just sent here takes the list to its end: its row makes the rows grow, and the observer
  // above scrolls there.
  useLayoutEffect(() => {
    if (justSent) following.current = true;
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atEnd =
      (following.current && el.scrollTop >= pinnedAt.current - 1) || distanceFromEnd(el) <= AT_END_PX;
    following.current = atEnd;
    // Compared with what the button shows, not with `following`: a message sent while scrolled up
    // makes the list follow before this event brings it to the end, and the button must go then too.
    if (atEnd !== (leftWith === null)) {
      setLeftWith(atEnd ? null : new Set(messages.map((m) => m.genId)));
      // Back at the end: the rows drawn on the way up are let go.
      if (atEnd) letGoAbove();
    }
    // Following, the observer asks once it has taken the list to its end: read here, the top of a list
    // that rows were just added to stood near, and older messages were asked for that nobody scrolled to.
    if (atEnd) return;
    // What moved the rows since the last hold and has not been kept yet (the offline banner going in the
    // frame before the observer's callback) is kept first: held afresh, it would be taken as the place.
    keepPlace(1);
    askOlderNearTop();
  };
  const jump = () => {
    if (scroller.current) {
      scrollToEnd(scroller.current);
      pinnedAt.current = scroller.current.scrollTop;
    }
    following.current = true;
    setLeftWith(null);
    letGoAbove();
  };

  // Links and reply quotes show a message in place, loading the history down to it (decision 0087).
  useLinkedMessage({
    institutionId: institution.id,
    channelId,
    messages,
    hiddenAbove,
    drawFrom,
    scroller,
    reach,
    onReachTo,
    revealer,
    onShown: () => {
      const el = scroller.current;
      following.current = false;
      hold();
      if (el && distanceFromEnd(el) > AT_END_PX) setLeftWith(new Set(messages.map((m) => m.genId)));
    },
  });

  const rows = useDrawnRows(messages, hiddenAbove, firstNew, membersById, byId, {
    meId: me.id,
    showAvatar: settings.showAuthorAvatarInMessages,
    canDeleteAny: access?.canDeleteMessage ?? false,
    canPin: access?.canPinMessage ?? false,
    isOwner: access?.isOwner ?? false,
    offline,
    today: new Date().toDateString(),
  });
  const showIntro = (neverUsed && isEmpty) || (!older.hasMore && !hasOlderStored && hiddenAbove === 0);
  return (
    <div className="relative flex min-h-0 flex-1 flex-col" data-message-list>
      <div
        ref={scroller}
        onScroll={onScroll}
        data-message-scroller
        className="min-h-0 flex-1 overflow-y-auto [overflow-anchor:none]"
      >
        {/* Few messages stand at the bottom, next to the composer, as in a conversation. */}
        <div ref={content} className="flex min-h-full flex-col justify-end">
          {showIntro ? (
            intro
          ) : older.loading ? (
            <Spinner className="flex-none p-4" label="Loading older messages" />
          ) : (
            <div className="h-4" />
          )}
          {/* The WAI-ARIA feed pattern: articles with one tab stop each (message-keys.ts); busy while an
              older page is on its way. */}
          <div ref={rowsElement} role="feed" aria-label={label} aria-busy={older.loading}>
            {rows}
          </div>
          <div className="h-3" />
        </div>
      </div>
      <p ref={announcer} className="sr-only" aria-live="polite" data-arrivals />
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

/**
 * Memoised: its screen re-renders when an echo it already shows is dropped or a store read it passes on
 * answers the same, and each of those re-rendered the list and compared every drawn row.
 */
export const MessageList = memo(MessageListView);

/** Pixels between the bottom of what the scroller shows and the end of its content. */
function distanceFromEnd(scroller: HTMLElement): number {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
}

function scrollToEnd(scroller: HTMLElement): void {
  scroller.scrollTop = scroller.scrollHeight;
}

/** Where an element's bottom stands in the scroller's content, however far it is scrolled. */
function contentBottom(element: Element, scroller: HTMLElement): number {
  return element.getBoundingClientRect().bottom - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/**
 * The first message row whose bottom is below the scroller's top. A day separator is passed over for the
 * row under it: the separator goes when an older page brings the day's earlier messages above it.
 */
function firstRowInView(rows: HTMLElement, scroller: HTMLElement): Element | null {
  const top = scroller.getBoundingClientRect().top;
  const children = rows.children;
  let low = 0;
  let high = children.length - 1;
  let found: Element | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const child = children[middle] as Element;
    if (child.getBoundingClientRect().bottom > top) {
      found = child;
      high = middle - 1;
    } else low = middle + 1;
  }
  while (found && found.tagName !== 'ARTICLE') found = found.nextElementSibling;
  return found;
}
