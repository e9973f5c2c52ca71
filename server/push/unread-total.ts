// The number on the app's icon (issue 13): a person's unread messages across every workspace and channel,
// muted channels left out (muting means "do not call me back for this"). Carried in each push so the
// service worker can set the badge without a store of its own; the message being pushed is already
// counted, the channel's message count having been raised in the post's transaction (decision 0047).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { unreadCountSql } from '../messages/unread.ts';

/** Unread totals by user id, in one statement; a user with no unread messages is absent. */
export async function unreadTotals(db: Db, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const result = await db.execute(
    sql`SELECT mb.user_id, coalesce(sum(${unreadCountSql}), 0)::int AS total
        FROM channel_members cm
        JOIN channels c ON c.id = cm.channel_id
        JOIN members mb ON mb.id = cm.member_id
        WHERE mb.user_id IN (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )}) AND cm.muted = false
        GROUP BY mb.user_id`,
  );
  const { rows } = result as unknown as { rows: { user_id: string; total: number | string }[] };
  return new Map(rows.filter((r) => Number(r.total) > 0).map((r) => [r.user_id, Number(r.total)]));
}
