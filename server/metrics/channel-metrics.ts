// Channel pages: the newest channels, and the channels that gained most messages and members within the
// window against the previous window. Direct messages are conversations between people, not channels:
// they never appear. Private channels appear by name and counts only (no content).
import { sql } from 'drizzle-orm';
import type { GrowingChannelsResponse, LatestChannelsResponse } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { type MetricWindow, windowFields } from './window.ts';

const ROWS = 50;

export async function latestChannels(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<LatestChannelsResponse> {
  const from = (w.from ?? new Date(0)).toISOString();
  const rows = rowsOf<{
    id: string;
    name: string;
    type: 'public' | 'private';
    created_at: string | Date;
    creator_id: string | null;
    creator_name: string | null;
    members: unknown;
    messages: unknown;
  }>(
    await db.execute(sql`
      select c.id, c.name, c.type, c.created_at, cr.id as creator_id, u.name as creator_name,
        coalesce(t.members, 0) as members, coalesce(t.messages, 0) as messages
      from channels c
      left join metric_channel_totals t on t.channel_id = c.id
      left join members cr on cr.id = c.created_by
      left join users u on u.id = cr.user_id
      where c.institution_id = ${institutionId} and c.type <> 'direct_message'
        and c.created_at >= ${from} and c.created_at < ${w.to.toISOString()}
      order by c.created_at desc, c.id
      limit ${ROWS}`),
  );
  return {
    ...windowFields(w),
    data: rows.map((r) => ({
      channelId: r.id,
      name: r.name,
      type: r.type,
      createdAt: new Date(r.created_at).toISOString(),
      createdBy: r.creator_id ? { id: r.creator_id, name: r.creator_name ?? '' } : null,
      members: Number(r.members),
      messages: Number(r.messages),
    })),
  };
}

const growth = (gained: number, previous: number | null) => {
  const change = previous === null ? null : gained - previous;
  return {
    gained,
    previousGained: previous,
    change,
    relativeChange: previous === null || previous === 0 || change === null ? null : change / previous,
  };
};

export async function growingChannels(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<GrowingChannelsResponse> {
  const to = w.to.toISOString();
  type Row = {
    id: string;
    name: string;
    type: 'public' | 'private';
    msg_in: unknown;
    msg_prev: unknown;
    mem_in: unknown;
    mem_prev: unknown;
  };
  let rows: Row[];
  if (w.from && w.previous) {
    const from = w.from.toISOString();
    const prevFrom = w.previous.from.toISOString();
    rows = rowsOf<Row>(
      await db.execute(sql`
        select c.id, c.name, c.type,
          coalesce(g.msg_in, 0) as msg_in, coalesce(g.msg_prev, 0) as msg_prev,
          coalesce(g.mem_in, 0) as mem_in, coalesce(g.mem_prev, 0) as mem_prev
        from channels c
        left join (
          select channel_id,
            sum(messages) filter (where quarter >= ${from}) as msg_in,
            sum(messages) filter (where quarter < ${from}) as msg_prev,
            sum(members) filter (where quarter >= ${from}) as mem_in,
            sum(members) filter (where quarter < ${from}) as mem_prev
          from metric_channel_quarters
          where institution_id = ${institutionId} and quarter >= ${prevFrom} and quarter < ${to}
          group by channel_id
        ) g on g.channel_id = c.id
        where c.institution_id = ${institutionId} and c.type <> 'direct_message'
        order by msg_in desc, mem_in desc, c.name, c.id
        limit ${ROWS}`),
    );
  } else {
    // Since the start: what each channel has now, less what came after toDate.
    rows = rowsOf<Row>(
      await db.execute(sql`
        select c.id, c.name, c.type,
          coalesce(t.messages, 0) - coalesce(a.messages, 0) as msg_in, null as msg_prev,
          coalesce(t.members, 0) - coalesce(a.members, 0) as mem_in, null as mem_prev
        from channels c
        left join metric_channel_totals t on t.channel_id = c.id
        left join (
          select channel_id, sum(messages) as messages, sum(members) as members
          from metric_channel_quarters
          where institution_id = ${institutionId} and quarter >= ${to}
          group by channel_id
        ) a on a.channel_id = c.id
        where c.institution_id = ${institutionId} and c.type <> 'direct_message'
        order by msg_in desc, mem_in desc, c.name, c.id
        limit ${ROWS}`),
    );
  }
  const prev = (v: unknown) => (w.previous ? Number(v ?? 0) : null);
  return {
    ...windowFields(w),
    data: rows.map((r) => ({
      channelId: r.id,
      name: r.name,
      type: r.type,
      messages: growth(Number(r.msg_in), prev(r.msg_prev)),
      members: growth(Number(r.mem_in), prev(r.mem_prev)),
    })),
  };
}
