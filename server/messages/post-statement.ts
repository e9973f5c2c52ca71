// The common post in one statement (issue 11 item 2, decision 0057). A batch of plain posts into one channel
// whose posters are all allowed needs nothing beside its rows: no files to record, no mention or reply to
// tell anyone of. Grants come from memory (./access-cache.ts), or from one read just before when a poster
// is not remembered yet. Such a batch is written by a single statement without BEGIN and COMMIT: it
// advances the channel only while the channel's access_version is the one its grants were read with,
// inserts the rows under the numbers it took and raises the authors' own counts (./unread.ts). A statement
// is atomic, so out-of-date grants write nothing (no row comes back) and a stored genId fails it whole (a
// unique violation); either way the batch goes the general way (./post-batch.ts), knowing which shortcut
// to drop. On PGlite every statement is a turn of the server's only thread: one instead of five.
import { sql } from 'drizzle-orm';
import type { ChannelAccess } from '../access.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../errors.ts';
import type { AccessCache } from './access-cache.ts';
import { loadBatchAccess, rememberedAccess } from './batch-access.ts';
import type { BatchedPost, BatchOutcome } from './batched-post.ts';
import { messageContent } from './content.ts';
import { newMessageRow } from './new-message-row.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type OneStatement =
  /** Written (or refused post by post for empty content): the batch's answers. */
  | { kind: 'written'; outcomes: BatchOutcome[] }
  /** The remembered access of the channel was out of date, or the channel is gone: nothing was written. */
  | { kind: 'stale'; channelId: string }
  /** A genId of the batch is already stored (a resend): nothing was written. */
  | { kind: 'repeat' }
  /** The batch needs more than one statement. */
  | { kind: 'not-plain' };

/** Whether every post of the batch is plain: one channel, no files, mentions or reply. */
function plainChannel(posts: readonly BatchedPost[]): string | null {
  const channelId = posts[0]?.input.channelId;
  if (!channelId) return null;
  for (const { input } of posts)
    if (
      input.channelId !== channelId ||
      input.replyTo ||
      (input.attachments?.length ?? 0) > 0 ||
      (input.mentions?.length ?? 0) > 0
    )
      return null;
  return channelId;
}

export async function writeInOneStatement(
  db: Db,
  posts: readonly BatchedPost[],
  cache: AccessCache,
): Promise<OneStatement> {
  const channelId = plainChannel(posts);
  if (!channelId) return { kind: 'not-plain' };
  const requests = posts.map((p) => ({ userId: p.userId, ...p.input }));
  // Null unless every poster is remembered and allowed: a refusal is always read afresh.
  let access = rememberedAccess(requests, cache);
  if (!access) {
    // A poster's first post here since this node started: their grant is read and remembered, outside any
    // transaction. The statement below checks the version it was read with, which makes the read as good
    // as one inside the transaction. A refusal goes the general way, which reads it again and says why.
    await loadBatchAccess(db, requests, cache, false);
    access = rememberedAccess(requests, cache);
  }
  const version = access?.versions.get(channelId);
  if (!access || version === undefined) return { kind: 'not-plain' };

  const now = new Date();
  const outcomes: BatchOutcome[] = new Array(posts.length);
  const writing: { index: number; access: ChannelAccess; row: MessageRow }[] = [];
  for (const [index, post] of posts.entries()) {
    const a = access.access(requests[index] as (typeof requests)[number]) as ChannelAccess;
    try {
      const content = messageContent(post.input.content, []);
      writing.push({
        index,
        access: a,
        row: newMessageRow(post.input, a.member.id, { attachments: [], content, replyTo: null }, now),
      });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      outcomes[index] = { kind: 'refused', error: err };
    }
  }
  if (writing.length === 0) return { kind: 'written', outcomes };

  const n = writing.length;
  const last = writing[n - 1] as (typeof writing)[number];
  const own = new Map<string, number>();
  for (const { row } of writing) own.set(row.memberId, (own.get(row.memberId) ?? 0) + 1);
  const rows = sql.join(
    writing.map(
      ({ row }, k) =>
        sql`(${row.id}, ${row.genId}, ${row.institutionId}, ${row.memberId}, ${row.content},
             ${row.createdAt.toISOString()}::timestamptz, ${k + 1}::int)`,
    ),
    sql`, `,
  );
  const authors = sql.join(
    [...own].map(([memberId, count]) => sql`(${memberId}, ${count}::int)`),
    sql`, `,
  );
  let lastSeq: number;
  try {
    const result = await db.execute(
      sql`WITH adv AS (
            UPDATE channels SET last_seq = last_seq + ${n}::int, message_count = message_count + ${n}::int,
              last_message_id = ${last.row.id}, last_message_at = ${now.toISOString()}::timestamptz
            WHERE id = ${channelId} AND access_version = ${version}::bigint
            RETURNING last_seq),
          ins AS (
            INSERT INTO messages (id, gen_id, channel_id, institution_id, member_id, content, created_at, seq, created_seq)
            SELECT p.id, p.gen_id, ${channelId}, p.institution_id, p.member_id, p.content, p.created_at,
              adv.last_seq - ${n}::int + p.k, adv.last_seq - ${n}::int + p.k
            FROM (VALUES ${rows}) AS p(id, gen_id, institution_id, member_id, content, created_at, k), adv
            RETURNING 1),
          own AS (
            UPDATE channel_members AS cm SET own_since_read = cm.own_since_read + o.n
            FROM (VALUES ${authors}) AS o(member_id, n), adv
            WHERE cm.channel_id = ${channelId} AND cm.member_id = o.member_id)
          SELECT last_seq FROM adv`,
    );
    // Both drivers answer raw statements with { rows }; bigint arrives as a string from node-postgres.
    const [advanced] = (result as unknown as { rows: { last_seq: string | number }[] }).rows;
    if (!advanced) return { kind: 'stale', channelId };
    lastSeq = Number(advanced.last_seq);
  } catch (err) {
    if (isUniqueViolation(err)) return { kind: 'repeat' };
    throw err;
  }
  // Posts take their numbers in arrival order: the first of n gets last_seq - n + 1.
  for (const [k, w] of writing.entries()) {
    w.row.seq = lastSeq - n + k + 1;
    w.row.createdSeq = w.row.seq;
    outcomes[w.index] = { kind: 'created', message: toWireMessage(w.row), access: w.access };
  }
  return { kind: 'written', outcomes };
}
