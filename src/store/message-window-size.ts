// What a channel's message window holds and how it grows (src/store/message-window.ts reads it), apart
// from the reading itself: the tab's screen needs these without the store's code (decision 0065).
import type { MessageDoc } from '../../schemas/collections.ts';

export interface MessageWindow {
  /** Shown messages oldest first: confirmed by position, then pending and failed ones. */
  messages: MessageDoc[];
  /** Older confirmed messages are stored below the window: widen it before asking the server. */
  hasOlderStored: boolean;
  /** The genIds of every row read, deleted ones too: an echo or arrival of any of them is replaced. */
  held: ReadonlySet<string>;
  /**
   * Asked to reach down to a message (a link to it, a reply's quote): `'held'` once the window goes down to
   * it, `'tooFar'` when more than REACH_MAX rows stand between it and the newest (the window then stays
   * its usual size). Absent when nothing was asked.
   */
  reach?: 'held' | 'tooFar';
}

/** The messages a first screen needs, with room for the overscan above it. */
export const FIRST_WINDOW = 60;
/** How many more each scroll to the top asks for. */
export const WINDOW_STEP = 100;
/**
 * The most rows a window reaches down over to show a linked message: the list draws every row from the
 * one it shows to the newest (decision 0070), so a link further back would draw thousands (decision 0087).
 */
export const REACH_MAX = 2_000;

/** Where a window reaches down to (a createdSeq), and the last place it reached that held. */
export interface Reach {
  reach?: number;
  lastHeld?: number;
}

/**
 * The reach once the window has answered for it. A place that held is remembered. One too far back goes
 * back to the last place that held (the rows the reader is on stay), or to none: kept, it would stay the
 * lowest asked for, and every later link, however near, would be answered "too far" with it.
 */
export function reachAfterAnswer(now: Reach, answer: 'held' | 'tooFar'): Reach {
  if (now.reach === undefined) return now;
  if (answer === 'held') return now.lastHeld === now.reach ? now : { reach: now.reach, lastHeld: now.reach };
  return now.lastHeld === undefined ? {} : { reach: now.lastHeld, lastHeld: now.lastHeld };
}
