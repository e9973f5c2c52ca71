// The common post in one statement (issue 11 items 1 and 2, decision 0057). A batch of plain posts whose
// posters are all allowed needs nothing beside its rows: no files to record, no mention or reply to
// tell anyone of. Grants come from memory (./access-cache.ts), or from one read just before when a poster
// is not remembered yet. Such a batch is written by a single statement without BEGIN and COMMIT: it
// advances its channels only while each one's access_version is the one its grants were read with,
// inserts the rows under the numbers it took and raises the authors' own counts (./unread.ts). A statement
// is atomic, so out-of-date grants write nothing (no row comes back) and a stored genId fails it whole (a
// unique violation); either way the batch goes the general way (./post-batch.ts), knowing which shortcut
// to drop. On PGlite every statement is a turn of the server's only thread: one instead of five.
import { type SQL, sql } from 'drizzle-orm';
import type { ChannelAccess } from '../access.ts';
import type { Db } from '../db/client.ts';
import { HttpError } from '../errors.ts';
import type { AccessCache } from './access-cache.ts';
import { loadBatchAccess, rememberedAccess } from './batch-access.ts';
import type { BatchedPost, BatchOutcome } from './batched-post.ts';
import { messageContent } from './content.ts';
import { newMessageRow } from './new-message-row.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { ownCounts } from './unread.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type OneStatement =
  /** Written (or refused post by post for empty content): the batch's answers. */
  | { kind: 'written'; outcomes: BatchOutcome[] }
  /** The access of a channel changed since its grants were read, or a channel is gone: nothing was written. */
  | { kind: 'stale'; channelIds: string[] }
  /** A genId of the batch is already stored (a resend): nothing was written. */
  | { kind: 'repeat' }
  /** The batch needs more than one statement. */
  | { kind: 'not-plain' };

/** The batch's channels, in id order, when every post is plain (no files, mentions or reply); else null. */
function plainChannels(posts: readonly BatchedPost[]): string[] | null {
  const ids = new Set<string>();
  for (const { input } of posts) {
    if (input.replyTo || (input.attachments?.length ?? 0) > 0 || (input.mentions?.length ?? 0) > 0)
      return null;
    ids.add(input.channelId);
  }
  return ids.size === 0 ? null : [...ids].sort();
}

/**
 * Which channels the statement advances. One channel: its row, if its version is still the one read.
 * Several: all of them or none. They are locked first, in id order (as the general path does, so two
 * nodes' batches never wait on each other crosswise), and advanced only if every one exists and has the
 * version its grants were read with; a materialised CTE takes its locks before the update reads it.
 * The one-channel form is the lone post's, the hot path: without the lock and check CTEs a lone post's
 * statement took 2.4–2.9 ms at the median on PGlite against 3.1–3.8 ms (a scratch loop, 500 posts a way).
 */
function advancedChannels(
  channels: readonly { id: string; n: number; lastId: string; version: number }[],
  now: Date,
): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [only] = channels;
  if (channels.length === 1 && only)
    return sql`adv AS (
        UPDATE channels SET last_seq = last_seq + ${only.n}::int, message_count = message_count + ${only.n}::int,
          last_message_id = ${only.lastId}, last_message_at = ${at}
        WHERE id = ${only.id} AND access_version = ${only.version}::bigint
        RETURNING id, last_seq, ${only.n}::int AS n)`;
  const values = sql.join(
    channels.map((c) => sql`(${c.id}, ${c.n}::int, ${c.lastId}, ${c.version}::bigint)`),
    sql`, `,
  );
  return sql`v(id, n, last_id, version) AS (VALUES ${values}),
      locked AS MATERIALIZED (
        SELECT id, access_version FROM channels WHERE id IN (SELECT id FROM v) ORDER BY id FOR UPDATE),
      current AS (
        SELECT count(*) = ${channels.length}::int AND bool_and(l.access_version = v.version) AS ok
        FROM locked l JOIN v ON v.id = l.id),
      adv AS (
        UPDATE channels AS c SET last_seq = c.last_seq + v.n, message_count = c.message_count + v.n,
          last_message_id = v.last_id, last_message_at = ${at}
        FROM v, current WHERE c.id = v.id AND current.ok
        RETURNING c.id, c.last_seq, v.n)`;
}

export async function writeInOneStatement(
  db: Db,
  posts: readonly BatchedPost[],
  cache: AccessCache,
): Promise<OneStatement> {
  const channelIds = plainChannels(posts);
  if (!channelIds) return { kind: 'not-plain' };
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
  if (!access) return { kind: 'not-plain' };

  const now = new Date();
  const outcomes: BatchOutcome[] = new Array(posts.length);
  const writing: { index: number; access: ChannelAccess; row: MessageRow; k: number }[] = [];
  // Per channel: how many posts it takes, the last one's id, and the version its grants were read with.
  const perChannel = new Map<string, { id: string; n: number; lastId: string; version: number }>();
  for (const [index, post] of posts.entries()) {
    const a = access.access(requests[index] as (typeof requests)[number]) as ChannelAccess;
    const version = access.versions.get(post.input.channelId);
    if (version === undefined) return { kind: 'not-plain' };
    try {
      const content = messageContent(post.input.content, []);
      const row = newMessageRow(post.input, a.member.id, { attachments: [], content, replyTo: null }, now);
      const c = perChannel.get(row.channelId) ?? { id: row.channelId, n: 0, lastId: row.id, version };
      c.n += 1;
      c.lastId = row.id;
      perChannel.set(row.channelId, c);
      // k: the post's place among its channel's posts of this batch, from 1.
      writing.push({ index, access: a, row, k: c.n });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      outcomes[index] = { kind: 'refused', error: err };
    }
  }
  if (writing.length === 0) return { kind: 'written', outcomes };

  const rows = sql.join(
    writing.map(
      ({ row, k }) =>
        sql`(${row.id}, ${row.genId}, ${row.channelId}, ${row.institutionId}, ${row.memberId}, ${row.content},
             ${row.createdAt.toISOString()}::timestamptz, ${k}::int)`,
    ),
    sql`, `,
  );
  const authors = sql.join(
    ownCounts(writing.map((w) => w.row)).map((o) => sql`(${o.channelId}, ${o.memberId}, ${o.count}::int)`),
    sql`, `,
  );
  const channels = channelIds.flatMap((id) => perChannel.get(id) ?? []);
  let lastSeqs: Map<string, number>;
  try {
    const result = await db.execute(
      sql`WITH ${advancedChannels(channels, now)},
          ins AS (
            INSERT INTO messages (id, gen_id, channel_id, institution_id, member_id, content, created_at, seq, created_seq)
            SELECT p.id, p.gen_id, p.channel_id, p.institution_id, p.member_id, p.content, p.created_at,
              adv.last_seq - adv.n + p.k, adv.last_seq - adv.n + p.k
            FROM (VALUES ${rows}) AS p(id, gen_id, channel_id, institution_id, member_id, content, created_at, k)
            JOIN adv ON adv.id = p.channel_id
            RETURNING 1),
          own AS (
            UPDATE channel_members AS cm SET own_since_read = cm.own_since_read + o.n
            FROM (VALUES ${authors}) AS o(channel_id, member_id, n) JOIN adv ON adv.id = o.channel_id
            WHERE cm.channel_id = o.channel_id AND cm.member_id = o.member_id)
          SELECT id, last_seq FROM adv`,
    );
    // Both drivers answer raw statements with { rows }; bigint arrives as a string from node-postgres.
    const advanced = (result as unknown as { rows: { id: string; last_seq: string | number }[] }).rows;
    if (advanced.length < channels.length) return { kind: 'stale', channelIds };
    lastSeqs = new Map(advanced.map((r) => [r.id, Number(r.last_seq)]));
  } catch (err) {
    if (isUniqueViolation(err)) return { kind: 'repeat' };
    throw err;
  }
  // Within a channel, posts take their numbers in arrival order: the first of n gets last_seq - n + 1.
  for (const w of writing) {
    const c = perChannel.get(w.row.channelId) as { n: number };
    w.row.seq = (lastSeqs.get(w.row.channelId) as number) - c.n + w.k;
    w.row.createdSeq = w.row.seq;
    outcomes[w.index] = { kind: 'created', message: toWireMessage(w.row), access: w.access };
  }
  return { kind: 'written', outcomes };
}
