// Writing a batch of posts in one transaction: the same rules as a single post (server/messages/post.ts),
// each post answered on its own, but the reads and writes made once per batch in set-based statements.
// A post refused by a rule gets its refusal and stays out of the batch; its neighbours carry on.
import { inArray, sql } from 'drizzle-orm';
import type { Message } from '../../schemas/protocol/index.ts';
import type { ChannelAccess } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channels, messages } from '../db/schema.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { postedAttachments, recordAttachments } from '../files/attachments.ts';
import { recordMessageActivities } from '../services/activities.ts';
import { type AccessCache, accessCacheFor } from './access-cache.ts';
import { loadBatchAccess } from './batch-access.ts';
import type { BatchedPost, BatchOutcome } from './batched-post.ts';
import { messageContent } from './content.ts';
import { newMessageRow } from './new-message-row.ts';
import { writeInOneStatement } from './post-statement.ts';
import { countOwnMessages, ownCounts } from './unread.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type { BatchedPost, BatchOutcome } from './batched-post.ts';

/** A stored message with this genId answers the repeat only if it is the same sender's, in the same channel. */
export function repeatOf(row: MessageRow, memberId: string, channelId: string): Message {
  if (row.memberId !== memberId || row.channelId !== channelId)
    throw badRequest('This message id is already used');
  return toWireMessage(row);
}

const refused = (err: unknown): BatchOutcome => {
  if (err instanceof HttpError) return { kind: 'refused', error: err };
  throw err;
};

interface Accepted {
  index: number;
  access: ChannelAccess;
  /** The row as it will be stored (./new-message-row.ts). */
  row: MessageRow;
}

/**
 * Bumps each channel's sequence and message count by its number of new posts and moves its last message,
 * in one statement, after locking the channels in id order so two nodes' batches never wait on each other
 * crosswise.
 * Answers each channel's new last_seq, and its access_version as of this lock (./access-cache.ts).
 */
async function advanceChannels(
  tx: Db,
  perChannel: Map<string, { count: number; lastId: string; lastAt: Date }>,
): Promise<Map<string, { lastSeq: number; accessVersion: number }>> {
  const ids = [...perChannel.keys()].sort();
  // One channel's row is locked by the UPDATE alone; with several, an UPDATE … FROM locks in no set order.
  if (ids.length > 1)
    await tx.execute(
      sql`SELECT id FROM channels WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) ORDER BY id FOR UPDATE`,
    );
  const values = ids.map((id) => {
    const c = perChannel.get(id) as { count: number; lastId: string; lastAt: Date };
    return sql`(${id}, ${c.count}::int, ${c.lastId}, ${c.lastAt.toISOString()}::timestamptz)`;
  });
  const result = await tx.execute(
    sql`UPDATE channels AS c SET last_seq = c.last_seq + v.n, message_count = c.message_count + v.n,
          last_message_id = v.last_id, last_message_at = v.last_at
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, n, last_id, last_at)
        WHERE c.id = v.id RETURNING c.id, c.last_seq, c.access_version`,
  );
  // Both drivers answer raw statements with { rows }; bigint arrives as a string from node-postgres.
  const { rows } = result as unknown as {
    rows: { id: string; last_seq: string | number; access_version: string | number }[];
  };
  return new Map(
    rows.map((r) => [r.id, { lastSeq: Number(r.last_seq), accessVersion: Number(r.access_version) }]),
  );
}

/** What a batch remembered of these channels' access was out of date: the batch runs again on a fresh read. */
class StaleAccess extends Error {
  constructor(readonly channelIds: string[]) {
    super('remembered channel access is out of date');
  }
}

/**
 * The channels whose access changed since the batch's answers were read. Remembered answers that are out
 * of date fail the batch (StaleAccess, before anything is acknowledged); answers read in this transaction
 * that a change committed just after (PostgreSQL) stand, as they would without memory, but are forgotten.
 */
function checkVersions(
  access: { versions: ReadonlyMap<string, number>; remembered: boolean },
  current: ReadonlyMap<string, number>,
  cache: AccessCache,
): void {
  const stale = [...current].filter(([id, v]) => access.versions.get(id) !== v).map(([id]) => id);
  if (stale.length === 0) return;
  if (access.remembered) throw new StaleAccess(stale);
  cache.forget(stale);
}

/** The access_version of channels the batch answered repeats in without taking a sequence number. */
async function accessVersions(tx: Db, channelIds: string[]): Promise<Map<string, number>> {
  const rows = await tx
    .select({ id: channels.id, accessVersion: channels.accessVersion })
    .from(channels)
    .where(inArray(channels.id, channelIds));
  return new Map(rows.map((r) => [r.id, r.accessVersion]));
}

/**
 * One transaction for the batch: outcomes in the order of `posts`. Throws only when the transaction itself
 * failed (a race on a genId with another node, a lost connection): then nothing of the batch was stored.
 * Posts in one batch have distinct genIds (the caller keeps a repeat for the next batch).
 */
export async function writePostBatch(db: Db, posts: readonly BatchedPost[]): Promise<BatchOutcome[]> {
  const cache = accessCacheFor(db);
  const mode: BatchMode = { remembered: true, checkRepeats: false };
  const quick = await writeInOneStatement(db, posts, cache);
  if (quick.kind === 'written') return quick.outcomes;
  if (quick.kind === 'stale') {
    cache.forget(quick.channelIds);
    mode.remembered = false;
  } else if (quick.kind === 'repeat') mode.checkRepeats = true;
  // At most three attempts: each retry turns one shortcut off for good.
  for (;;) {
    try {
      return await writeBatch(db, posts, cache, mode);
    } catch (err) {
      if (err instanceof StaleAccess && mode.remembered) {
        cache.forget(err.channelIds);
        mode.remembered = false;
      } else if (err instanceof RepeatedPost && !mode.checkRepeats) mode.checkRepeats = true;
      else throw err;
    }
  }
}

/**
 * The batch's two shortcuts, on for its first attempt. `remembered`: answer access from memory when every
 * poster is remembered. `checkRepeats` off: look for stored genIds only if the insert meets one (a repeat
 * is a resend after a lost acknowledgement, rare next to new posts), then run the batch again looking.
 */
interface BatchMode {
  remembered: boolean;
  checkRepeats: boolean;
}

/** The insert met a stored genId while the batch had not looked for repeats: it runs again, looking. */
class RepeatedPost extends Error {
  constructor() {
    super('a post of the batch repeats a stored one');
  }
}

async function writeBatch(
  db: Db,
  posts: readonly BatchedPost[],
  cache: AccessCache,
  mode: Readonly<BatchMode>,
): Promise<BatchOutcome[]> {
  return db.transaction(async (tx) => {
    const outcomes: BatchOutcome[] = new Array(posts.length);
    const requests = posts.map((p) => ({ userId: p.userId, ...p.input }));
    const replyIds = [...new Set(posts.flatMap((p) => (p.input.replyTo ? [p.input.replyTo] : [])))];
    const access = await loadBatchAccess(tx, requests, cache, mode.remembered);
    const genIds = posts.map((p) => p.input.genId);
    const existingRows = mode.checkRepeats
      ? await tx.select().from(messages).where(inArray(messages.genId, genIds))
      : [];
    const replyRows =
      replyIds.length === 0
        ? []
        : await tx
            .select({ id: messages.id, channelId: messages.channelId })
            .from(messages)
            .where(inArray(messages.id, replyIds));
    const existing = new Map(existingRows.map((r) => [r.genId, r]));
    const replyChannel = new Map(replyRows.map((r) => [r.id, r.channelId]));

    const now = new Date();
    const accepted: Accepted[] = [];
    for (const [index, post] of posts.entries()) {
      const { input } = post;
      const a = access.access(requests[index] as (typeof requests)[number]);
      if (a instanceof HttpError) {
        outcomes[index] = { kind: 'refused', error: a };
        continue;
      }
      const memberId = a.member.id;
      const stored = existing.get(input.genId);
      if (stored) {
        try {
          outcomes[index] = { kind: 'repeat', message: repeatOf(stored, memberId, input.channelId) };
        } catch (err) {
          outcomes[index] = refused(err);
        }
        continue;
      }
      const refusal = access.refusal(requests[index] as (typeof requests)[number], a);
      if (refusal) {
        outcomes[index] = { kind: 'refused', error: refusal };
        continue;
      }
      try {
        // Only the sender's own files of this channel, described by their records, never by the client.
        const attachments = await postedAttachments(
          tx,
          { institutionId: input.institutionId, channelId: input.channelId, memberId },
          input.attachments ?? [],
        );
        const content = messageContent(input.content, attachments);
        // A reply keeps its target only when it is a message of the same channel; an unknown one is
        // dropped rather than refused, or an offline-written reply could never be delivered.
        const replyTo =
          input.replyTo && replyChannel.get(input.replyTo) === input.channelId ? input.replyTo : null;
        accepted.push({
          index,
          access: a,
          row: newMessageRow(input, memberId, { attachments, content, replyTo }, now),
        });
      } catch (err) {
        outcomes[index] = refused(err);
      }
    }
    // A repeat needs no sequence number, so its channel's version is read on its own (remembered answers only).
    if (access.remembered) {
      const unchecked = [
        ...new Set(outcomes.flatMap((o) => (o?.kind === 'repeat' ? [o.message.channelId] : []))),
      ].filter((id) => !accepted.some((a) => a.row.channelId === id));
      if (unchecked.length > 0) checkVersions(access, await accessVersions(tx, unchecked), cache);
    }
    if (accepted.length === 0) return outcomes;

    const perChannel = new Map<string, { count: number; lastId: string; lastAt: Date }>();
    for (const { row } of accepted) {
      const c = perChannel.get(row.channelId);
      perChannel.set(row.channelId, { count: (c?.count ?? 0) + 1, lastId: row.id, lastAt: now });
    }
    const advanced = await advanceChannels(tx, perChannel);
    checkVersions(access, new Map([...advanced].map(([id, a]) => [id, a.accessVersion])), cache);
    // Within a channel, posts take their numbers in arrival order: the first of n gets last_seq - n + 1.
    const nextSeq = new Map<string, number>();
    for (const [channelId, { lastSeq }] of advanced)
      nextSeq.set(channelId, lastSeq - (perChannel.get(channelId)?.count ?? 0) + 1);
    const writing: Accepted[] = [];
    for (const post of accepted) {
      const seq = nextSeq.get(post.row.channelId);
      if (seq === undefined) {
        // Deleted since the access read (PostgreSQL, another connection): nothing to post into.
        outcomes[post.index] = { kind: 'refused', error: notFound('Channel not found') };
        continue;
      }
      nextSeq.set(post.row.channelId, seq + 1);
      post.row.seq = seq;
      post.row.createdSeq = seq;
      writing.push(post);
    }
    if (writing.length === 0) return outcomes;

    const inserted = await tx
      .insert(messages)
      .values(writing.map(({ row: { plainText: _generated, ...values } }) => values))
      .onConflictDoNothing({ target: messages.genId })
      .returning({ genId: messages.genId });
    if (inserted.length < writing.length) {
      if (!mode.checkRepeats) throw new RepeatedPost();
      // Looked for and not found, yet stored: another connection committed it meanwhile (PostgreSQL). The
      // batch fails as a whole and its posts go one by one (./post.ts), where only that one is a repeat.
      throw new Error('a genId of the batch was committed by another connection meanwhile');
    }
    const rows = writing.map((w) => w.row);
    await countOwnMessages(tx, ownCounts(rows));
    for (const row of rows) {
      await recordAttachments(tx, row);
      await recordMessageActivities(tx, row);
    }
    for (const [i, w] of writing.entries())
      outcomes[w.index] = {
        kind: 'created',
        message: toWireMessage(rows[i] as MessageRow),
        access: w.access,
      };
    return outcomes;
  });
}
