// Unread counts as differences of positions (decision 0047): a post writes no row per member. The channel
// counts the messages created in it (channels.message_count, raised with its sequence); each member keeps
// where their reading stands (the channel's count and last_seq when they last read it or joined it) and how
// many messages they wrote since. Unread = messages created since − their own since − others' messages
// deleted since. Only the author's own row is written on a post, and only deletions are ever counted.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { channels } from '../db/schema.ts';
import type { MessageRow } from './wire.ts';

/**
 * The member's unread count, for a query over `channel_members` aliased `cm` joined with its `channels`
 * row aliased `c`. The deleted messages are read through a partial index holding deleted messages only.
 * Clamped at zero: rows written around these counters (a bulk import) can only err towards none.
 */
export const unreadCountSql: SQL<number> = sql<number>`GREATEST(0, c.message_count - cm.read_count - cm.own_since_read
  - (SELECT count(*) FROM messages m
     WHERE m.channel_id = cm.channel_id AND m.deleted_at IS NOT NULL
       AND m.created_seq > cm.read_seq AND m.member_id <> cm.member_id))::int`;

/** A membership's unread count and the channel sequence it was counted at (messages above it are not in it). */
export interface UnreadCount {
  count: number;
  through: number;
}

/**
 * Each membership's unread count by its id, in one statement. The channel's `last_seq` is read in the same
 * statement, so a client can tell which live messages the count already holds (issue 15 item 1).
 */
export async function unreadCounts(
  db: Db,
  channelMemberIds: readonly string[],
): Promise<Map<string, UnreadCount>> {
  if (channelMemberIds.length === 0) return new Map();
  const result = await db.execute(
    sql`SELECT cm.id, ${unreadCountSql} AS unread, c.last_seq AS through
        FROM channel_members cm JOIN channels c ON c.id = cm.channel_id
        WHERE cm.id IN (${sql.join(
          channelMemberIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  const { rows } = result as unknown as {
    rows: { id: string; unread: number | string; through: number | string }[];
  };
  return new Map(rows.map((r) => [r.id, { count: Number(r.unread), through: Number(r.through) }]));
}

/**
 * Where a new member's reading starts: at the channel's end, so history from before they joined is not
 * unread (values for the insert of a channel_members row).
 */
export function joinedReadPosition(channelId: string) {
  return {
    readSeq: sql`(SELECT ${channels.lastSeq} FROM ${channels} WHERE ${channels.id} = ${channelId})`,
    readCount: sql`(SELECT ${channels.messageCount} FROM ${channels} WHERE ${channels.id} = ${channelId})`,
  };
}

/** The batch's posts per channel and author: each author's own count (./unread.ts) rises by theirs. */
export function ownCounts(
  rows: readonly Pick<MessageRow, 'channelId' | 'memberId'>[],
): { channelId: string; memberId: string; count: number }[] {
  const counts = new Map<string, { channelId: string; memberId: string; count: number }>();
  for (const r of rows) {
    const key = `${r.channelId} ${r.memberId}`;
    const c = counts.get(key);
    if (c) c.count += 1;
    else counts.set(key, { channelId: r.channelId, memberId: r.memberId, count: 1 });
  }
  return [...counts.values()];
}

/**
 * Inside the create transaction, after the channel's sequence (which raised its message count): the
 * author's own messages since their last read, so their posts never count for them. Agents and others
 * outside the channel have no row and no count.
 */
export async function countOwnMessages(
  tx: Db,
  posted: readonly { channelId: string; memberId: string; count: number }[],
): Promise<void> {
  if (posted.length === 0) return;
  const values = posted.map((p) => sql`(${p.channelId}, ${p.memberId}, ${p.count}::int)`);
  await tx.execute(
    sql`UPDATE channel_members AS cm SET own_since_read = cm.own_since_read + v.n
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v(channel_id, member_id, n)
        WHERE cm.channel_id = v.channel_id AND cm.member_id = v.member_id`,
  );
}

/**
 * The member has read the channel: their position moves to its end and their last read message to its
 * last one. The channel row is read FOR SHARE: a post to this channel committing meanwhile (which holds
 * the row) is waited for, so the count and sequence read belong together with the author's own count.
 */
export async function resetUnreadCount(db: Db, channelId: string, memberId: string): Promise<void> {
  await db.execute(
    sql`UPDATE channel_members AS cm
        SET read_seq = c.last_seq, read_count = c.message_count, own_since_read = 0,
            last_read_message_id = c.last_message_id
        FROM (SELECT id, last_seq, message_count, last_message_id FROM channels WHERE id = ${channelId} FOR SHARE) AS c
        WHERE cm.channel_id = c.id AND cm.member_id = ${memberId}`,
  );
}
