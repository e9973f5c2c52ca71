// Messages that engaged people most (replies + reactions + poll votes), created within the window, and
// only from channels the viewing admin may read: public channels and private channels they are in.
// Direct messages and other private channels never appear, not even their names.
import { sql } from 'drizzle-orm';
import type { EngagingMessagesResponse } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { type MetricWindow, windowFields } from './window.ts';

const EXCERPT_CHARS = 200;

export async function engagingMessages(
  db: Db,
  institutionId: string,
  viewerMemberId: string,
  w: MetricWindow,
  page: number,
  limit: number,
): Promise<EngagingMessagesResponse> {
  const from = (w.from ?? new Date(0)).toISOString();
  const to = w.to.toISOString();
  const readable = sql`(
    select c.id from channels c
    where c.institution_id = ${institutionId}
      and (c.type = 'public' or (c.type = 'private' and exists (
        select 1 from channel_members cm where cm.channel_id = c.id and cm.member_id = ${viewerMemberId}))))`;
  const where = sql`e.institution_id = ${institutionId} and e.score > 0
    and e.created_at >= ${from} and e.created_at < ${to} and e.channel_id in ${readable}`;
  const [counted] = rowsOf<{ n: unknown }>(
    await db.execute(sql`select count(*) as n from metric_engagement e where ${where}`),
  );
  const total = Number(counted?.n ?? 0);
  const rows = rowsOf<{
    message_id: string;
    channel_id: string;
    channel_name: string;
    author_id: string | null;
    author_name: string | null;
    plain_text: string;
    created_at: string | Date;
    replies: number;
    reactions: number;
    poll_votes: number;
    score: number;
  }>(
    await db.execute(sql`
      select e.message_id, e.channel_id, c.name as channel_name,
        mem.id as author_id, u.name as author_name, m.plain_text, e.created_at,
        e.replies, e.reactions, e.poll_votes, e.score
      from (
        select * from metric_engagement e where ${where}
        order by e.score desc, e.created_at desc, e.message_id
        limit ${limit} offset ${(page - 1) * limit}
      ) e
      join channels c on c.id = e.channel_id
      join messages m on m.id = e.message_id
      left join members mem on mem.id = m.member_id
      left join users u on u.id = mem.user_id
      order by e.score desc, e.created_at desc, e.message_id`),
  );
  return {
    ...windowFields(w),
    data: rows.map((r) => ({
      messageId: r.message_id,
      channelId: r.channel_id,
      channelName: r.channel_name,
      authorId: r.author_id,
      authorName: r.author_name ?? 'Former member',
      excerpt: [...r.plain_text].slice(0, EXCERPT_CHARS).join(''),
      createdAt: new Date(r.created_at).toISOString(),
      replies: Number(r.replies),
      reactions: Number(r.reactions),
      pollVotes: Number(r.poll_votes),
      score: Number(r.score),
    })),
    metadata: { page, limit, total, hasMore: page * limit < total },
  };
}
