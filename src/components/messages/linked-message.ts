// Showing one message of the open channel in place, wherever it is (decision 0087): a link to it (search,
// activity, a starred or pinned list: the URL's #id) or a reply's quote. A drawn row is scrolled to; one in
// the window is drawn first, from a few rows above it; one further back is found (the server says where,
// the history down to it is stored) and the window reaches down to it. Then it is put in the middle of
// the list and flashed. When it cannot be shown, a notice says why.
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { toast } from '../../app/toast.ts';
import { findLinkedMessage, type LinkedMessage } from '../../data/linked-messages.ts';
import { REACH_MAX } from '../../store/message-window-size.ts';

/** Rows drawn above a linked message shown, so that it stands in the middle with what led to it. */
const CONTEXT_ROWS = 10;

/** Why a linked message is not shown, in the reader's words. */
const NOT_SHOWN: Record<Exclude<LinkedMessage['kind'], 'found'>, string> = {
  deleted: 'That message was deleted.',
  missing: 'That message is not in this conversation.',
  unreachable: 'That message is not on this device yet. It will load when you are back online.',
  tooFar: `That message is more than ${REACH_MAX.toLocaleString('en')} messages back, too far to jump to. Scroll up to reach it.`,
};

/**
 * A row scrolled to flashes, so that the eye finds it (the animation restarts on each call), and takes
 * focus, so that the keyboard and a screen reader go on from there, not from the link or quote left behind.
 */
function show(row: HTMLElement): void {
  row.classList.remove('message-highlight');
  void row.offsetWidth;
  row.classList.add('message-highlight');
  row.focus({ preventScroll: true });
}

function rowOf(scroller: HTMLElement | null, messageId: string): HTMLElement | null {
  return scroller?.querySelector<HTMLElement>(`article[data-message-id="${CSS.escape(messageId)}"]`) ?? null;
}

export function useLinkedMessage({
  institutionId,
  channelId,
  messages,
  hiddenAbove,
  drawFrom,
  scroller,
  reach,
  onReachTo,
  revealer,
  onShown,
}: {
  institutionId: string;
  channelId: string;
  /** The window's messages, oldest first. */
  messages: readonly MessageDoc[];
  /** How many of them are above the first row drawn. */
  hiddenAbove: number;
  /** Draws the rows from this index of `messages` on. */
  drawFrom: (index: number) => void;
  scroller: RefObject<HTMLDivElement | null>;
  /** Whether the window reached down as last asked (message-window-size.ts). */
  reach: 'held' | 'tooFar' | undefined;
  /** Takes the window down to a createdSeq. */
  onReachTo: ((createdSeq: number) => void) | undefined;
  /** Given this list's way to show a message by its server id. */
  revealer: RefObject<((messageId: string) => void) | null> | undefined;
  /** A row was scrolled to the middle: the list stops following its end and keeps this place. */
  onShown: () => void;
}): void {
  const [target, setTarget] = useState<{ id: string; createdSeq?: number } | null>(null);
  const targetIndex = target ? messages.findIndex((m) => m.id === target.id) : -1;
  // In the window but above the rows drawn: drawn in this render, a few rows above it first.
  if (target && targetIndex >= 0 && targetIndex < hiddenAbove) drawFrom(targetIndex - CONTEXT_ROWS);

  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const notShown = (kind: keyof typeof NOT_SHOWN) => {
    setTarget(null);
    toast.info(NOT_SHOWN[kind]);
  };

  // The window answered for the place asked, and the message is not in it: too far back, or gone since.
  const oldestShown = messages[0]?.createdSeq ?? 0;
  const missed =
    !target || targetIndex >= 0 || target.createdSeq === undefined
      ? null
      : reach === 'tooFar'
        ? 'tooFar'
        : reach === 'held' && oldestShown > 0 && oldestShown <= target.createdSeq
          ? 'deleted'
          : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: notShown is remade each render, missed is what counts
  useEffect(() => {
    if (missed) notShown(missed);
  }, [missed]);

  // Drawn: in the middle of the list, before the frame that shows it.
  const shownLatest = useRef(onShown);
  shownLatest.current = onShown;
  useLayoutEffect(() => {
    if (!target || targetIndex < 0 || targetIndex < hiddenAbove) return;
    const row = rowOf(scroller.current, target.id);
    if (!row) return;
    setTarget(null);
    row.scrollIntoView({ block: 'center' });
    shownLatest.current();
    show(row);
  }, [target, targetIndex, hiddenAbove, scroller]);

  const reveal = (messageId: string) => {
    const row = rowOf(scroller.current, messageId);
    if (row) {
      row.scrollIntoView({ block: 'center', behavior: 'smooth' });
      show(row);
      return;
    }
    setTarget({ id: messageId });
    if (messages.some((m) => m.id === messageId)) return;
    void findLinkedMessage(institutionId, channelId, messageId).then((found) => {
      // The reader may have left the channel meanwhile: the answer is for a list no longer there.
      if (!mounted.current) return;
      if (found.kind !== 'found') {
        notShown(found.kind);
        return;
      }
      // Only while this link is still the one asked for.
      setTarget((now) => (now?.id === messageId ? { id: messageId, createdSeq: found.createdSeq } : now));
      onReachTo?.(found.createdSeq);
    });
  };
  const revealLatest = useRef(reveal);
  revealLatest.current = reveal;
  useLayoutEffect(() => {
    if (!revealer) return;
    revealer.current = (messageId) => revealLatest.current(messageId);
    return () => {
      revealer.current = null;
    };
  }, [revealer]);
}
