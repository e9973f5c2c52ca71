// The part of a channel the view renders: its newest stored messages, live, and never the whole channel.
// Reading everything made opening a channel cost as much with 50,000 stored messages as it takes to read
// and sort them all. RxDB cannot walk an index backwards (a descending sort reads every match and sorts),
// so the window is a range instead: messages created after a lower bound on the channel's sequence,
// found from the sync checkpoint and widened until it holds enough to fill the screen. Messages not yet
// confirmed (sequence 0) are always in it. New messages only ever add to the bottom of a window, which
// keeps the list's scroll anchoring simple; scrolling up asks for a wider one.
import { combineLatest, from, Observable, of, type Subscription, switchMap } from 'rxjs';
import type { MessageDoc } from '../../schemas/collections.ts';
import type { LanternCollections } from './database.ts';

type WindowCollections = Pick<LanternCollections, 'messages' | 'syncState'>;

import { orderMessages } from './message-order.ts';
import { type MessageWindow, REACH_MAX } from './message-window-size.ts';

export { FIRST_WINDOW, type MessageWindow, REACH_MAX, WINDOW_STEP } from './message-window-size.ts';

/**
 * The lowest createdSeq to leave out so that at least `size` confirmed messages (tombstones included)
 * are above it: starts `size` × 2 below the checkpoint (or the newest message seen, if higher) and widens fourfold while too few are found.
 */
async function lowerBound(
  db: WindowCollections,
  channelId: string,
  size: number,
  newestSeen: number,
): Promise<number> {
  const state = await db.syncState.findOne(channelId).exec();
  let newest = Math.max(state?.checkpoint ?? 0, newestSeen);
  if (newest === 0) return 0;
  let span = Math.max(size * 2, 200);
  for (;;) {
    const bound = Math.max(0, newest - span);
    if (bound === 0) return 0;
    const found = await db.messages
      .find({
        selector: { channelId, createdSeq: { $gt: bound } },
        sort: [{ createdSeq: 'asc' }],
        limit: size,
      })
      .exec();
    if (found.length >= size) return bound;
    // Messages may sit above the checkpoint (live ones, older pages): count from the highest seen.
    for (const doc of found) newest = Math.max(newest, doc.createdSeq);
    span *= 4;
  }
}

/** Whether any confirmed message of the channel is stored at or below `bound` (one indexed row read). */
async function storedAtOrBelow(db: WindowCollections, channelId: string, bound: number): Promise<boolean> {
  if (bound === 0) return false;
  const one = await db.messages
    .find({
      selector: { channelId, createdSeq: { $gt: 0, $lte: bound } },
      sort: [{ createdSeq: 'asc' }],
      limit: 1,
    })
    .exec();
  return one.length > 0;
}

/**
 * Whether a window may reach down to the message at `createdSeq`: at most REACH_MAX rows stored from it
 * up (counted on the [channelId, createdSeq] index, no row read).
 */
async function withinReach(db: WindowCollections, channelId: string, createdSeq: number): Promise<boolean> {
  const rows = await db.messages.count({ selector: { channelId, createdSeq: { $gte: createdSeq } } }).exec();
  return rows <= REACH_MAX;
}

/**
 * Each stored revision's plain copy, made once: RxDB hands back the same document object while a row is
 * unchanged, so an unchanged row keeps the same message object from one window to the next and its
 * memoised row component skips it. A new message then re-renders one row, not the whole screen (issue 11
 * item 6: a live message painted within 50 ms).
 */
const plainCopies = new WeakMap<object, MessageDoc>();

function plainCopy(doc: { toJSON(): unknown }): MessageDoc {
  let copy = plainCopies.get(doc);
  if (!copy) {
    copy = doc.toJSON() as MessageDoc;
    plainCopies.set(doc, copy);
  }
  return copy;
}

/** What a stored row's revision is told by (an RxDocument's `primary` and `revision`, "height-hash"). */
interface Revisioned {
  primary: string;
  revision: string;
}

/**
 * One row per message, its newest revision. The two live queries below can hold two revisions of one
 * document at once: a message confirmed by another store instance (the fallback's socket owner, while this
 * worker's store heard of the tab's insert later than of the owner's update) sat in the confirmed query
 * and, stale, in the unconfirmed one, and showed twice (dedicated-worker.spec).
 */
export function newestRevisions<D extends Revisioned>(docs: readonly D[]): D[] {
  const byId = new Map<string, D>();
  const height = (doc: D) => Number.parseInt(doc.revision, 10) || 0;
  for (const doc of docs) {
    const held = byId.get(doc.primary);
    if (!held || height(doc) > height(held)) byId.set(doc.primary, doc);
  }
  return byId.size === docs.length ? [...docs] : [...byId.values()];
}

/** A window this much larger than asked for (a long catch-up into an open channel) is cut back. */
function overgrown(size: number): number {
  return size * 4 + 200;
}

/**
 * The newest `size` (or more) messages of a channel and every unconfirmed one, live. When a catch-up
 * pours messages into the window it is recomputed from the newer checkpoint, dropping older rows, so an
 * open channel never holds the whole catch-up in memory. `reach` (a createdSeq) takes the window down to
 * that message as well, when it is within REACH_MAX rows of the newest (decision 0087).
 */
export function watchMessageWindow(
  db: WindowCollections,
  channelId: string,
  size: number,
  reach?: number,
): Observable<MessageWindow> {
  return new Observable<MessageWindow>((subscriber) => {
    let current: Subscription | null = null;
    const place = async (newestSeen: number) => {
      const bound = await lowerBound(db, channelId, size, newestSeen);
      if (reach === undefined) return { bound, reached: undefined };
      if (!(await withinReach(db, channelId, reach))) return { bound, reached: 'tooFar' as const };
      return { bound: Math.min(bound, reach - 1), reached: 'held' as const };
    };
    const open = (newestSeen: number) => {
      current?.unsubscribe();
      current = from(place(newestSeen))
        .pipe(
          switchMap(({ bound, reached }) =>
            combineLatest([
              db.messages.find({ selector: { channelId, createdSeq: { $gt: bound } } }).$,
              db.messages.find({ selector: { channelId, createdSeq: 0 } }).$,
              from(storedAtOrBelow(db, channelId, bound)),
              of(reached),
            ]),
          ),
        )
        .subscribe({
          next: ([confirmed, unconfirmed, hasOlderStored, reached]) => {
            // A window reaching down to a message holds up to REACH_MAX rows more before it is cut back.
            if (confirmed.length > overgrown(size) + (reached === 'held' ? REACH_MAX : 0)) {
              open(Math.max(...confirmed.map((d) => d.createdSeq)));
              return;
            }
            const rows = newestRevisions([...confirmed, ...unconfirmed]).map(plainCopy);
            subscriber.next({
              messages: orderMessages(rows),
              hasOlderStored,
              held: new Set(rows.map((m) => m.genId)),
              ...(reached ? { reach: reached } : {}),
            });
          },
          error: (error: unknown) => subscriber.error(error),
        });
    };
    open(0);
    return () => current?.unsubscribe();
  });
}
