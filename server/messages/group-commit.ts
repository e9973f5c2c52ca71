// Group commit for posts (decision 0023): while one batch's transaction is in flight, the posts that arrive
// wait together and share the next one. Each post is answered only once the transaction that holds it has
// committed; a lone post starts within the same turn of the event loop, so nothing waits for a timer.
import type { Db } from '../db/client.ts';
import { type BatchedPost, type BatchOutcome, writePostBatch } from './post-batch.ts';

/**
 * The most posts one transaction carries. Enough to absorb a burst from every open socket at once; small
 * enough that one batch's statements stay short and one slow batch holds few acknowledgements.
 */
const MAX_BATCH = 256;

interface Waiting {
  post: BatchedPost;
  settle(outcome: BatchOutcome | { kind: 'failed'; error: unknown }): void;
}

export type GroupOutcome = BatchOutcome | { kind: 'failed'; error: unknown };

export interface GroupCommit {
  /** Resolves after the commit holding this post (or with its refusal); 'failed' when its batch failed. */
  submit(post: BatchedPost): Promise<GroupOutcome>;
}

function createGroupCommit(db: Db): GroupCommit {
  let waiting: Waiting[] = [];
  let inFlight = false;

  const takeBatch = (): Waiting[] => {
    // A genId twice in one batch would break the batch's insert: the later one waits for the next batch,
    // where it finds the first one stored and is answered as its repeat.
    const seen = new Set<string>();
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    for (const w of waiting) {
      if (batch.length < MAX_BATCH && !seen.has(w.post.input.genId)) {
        seen.add(w.post.input.genId);
        batch.push(w);
      } else later.push(w);
    }
    waiting = later;
    return batch;
  };

  const run = async () => {
    inFlight = true;
    try {
      while (waiting.length > 0) {
        const batch = takeBatch();
        if (batch.length === 0) break;
        try {
          const outcomes = await writePostBatch(
            db,
            batch.map((w) => w.post),
          );
          batch.forEach((w, i) => {
            w.settle(outcomes[i] as BatchOutcome);
          });
        } catch (error) {
          for (const w of batch) w.settle({ kind: 'failed', error });
        }
        // Let the posts that came in during the commit be read before the next batch is cut.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      inFlight = false;
    }
  };

  return {
    submit(post) {
      return new Promise((resolve) => {
        waiting.push({ post, settle: resolve });
        // Started after this turn's I/O: every post already received (PGlite runs its statements on this
        // thread, so while it commits, packets pile up unread) joins the batch, and none waits on a timer.
        if (!inFlight) {
          inFlight = true;
          setImmediate(() => void run());
        }
      });
    },
  };
}

/**
 * Posts are spread over lanes by channel, each lane with one batch in flight: PostgreSQL commits several
 * lanes at once on its pool, while a channel's posts stay in one lane, so its sequence is taken in
 * arrival order and two lanes never wait on each other's channel locks. PGlite has one connection: one lane.
 */
export interface Lanes {
  submit(post: BatchedPost): Promise<GroupOutcome>;
}

function laneOf(channelId: string, count: number): number {
  let h = 0;
  for (let i = 0; i < channelId.length; i++) h = (h * 31 + channelId.charCodeAt(i)) | 0;
  return Math.abs(h) % count;
}

const perDatabase = new WeakMap<Db, Lanes>();

/** One set of lanes per database handle (each server in a process has its own). */
export function groupCommitFor(db: Db, laneCount: number): Lanes {
  let lanes = perDatabase.get(db);
  if (!lanes) {
    const each = Array.from({ length: Math.max(1, laneCount) }, () => createGroupCommit(db));
    lanes = {
      submit: (post) => (each[laneOf(post.input.channelId, each.length)] as GroupCommit).submit(post),
    };
    perDatabase.set(db, lanes);
  }
  return lanes;
}
