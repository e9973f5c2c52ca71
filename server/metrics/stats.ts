// The overview's summary figures: members, active members, channels, messages, files, storage and
// agents at toDate, gained within the window and within the previous window of equal length.
import { sql } from 'drizzle-orm';
import type { MetricFigure, MetricStatsResponse } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { type MetricWindow, windowFields } from './window.ts';

type Counts = { total: unknown; inPeriod: unknown; previous: unknown };

const figure = (w: MetricWindow, c: Counts | undefined): MetricFigure => ({
  total: Number(c?.total ?? 0),
  inPeriod: w.from ? Number(c?.inPeriod ?? 0) : Number(c?.total ?? 0),
  previousPeriod: w.previous ? Number(c?.previous ?? 0) : null,
});

/** Start of the window for SQL: the beginning of time without one. */
const fromOf = (w: MetricWindow) => (w.from ?? new Date(0)).toISOString();
const prevFromOf = (w: MetricWindow) => (w.previous?.from ?? new Date(0)).toISOString();

export async function metricStats(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<MetricStatsResponse> {
  const to = w.to.toISOString();
  const from = fromOf(w);
  const prevFrom = prevFromOf(w);
  // Workspace counters from the quarter rollup: one row per quarter hour of activity.
  const [q] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select
        sum(members) filter (where quarter < ${to}) as members_total,
        sum(members) filter (where quarter >= ${from} and quarter < ${to}) as members_in,
        sum(members) filter (where quarter >= ${prevFrom} and quarter < ${from}) as members_prev,
        sum(channels) filter (where quarter < ${to}) as channels_total,
        sum(channels) filter (where quarter >= ${from} and quarter < ${to}) as channels_in,
        sum(channels) filter (where quarter >= ${prevFrom} and quarter < ${from}) as channels_prev,
        sum(messages) filter (where quarter < ${to}) as messages_total,
        sum(messages) filter (where quarter >= ${from} and quarter < ${to}) as messages_in,
        sum(messages) filter (where quarter >= ${prevFrom} and quarter < ${from}) as messages_prev
      from metric_quarters where institution_id = ${institutionId} and quarter < ${to}`),
  );
  // Files and agents are as many as the workspace has (one row each, indexed by workspace and time).
  // Storage is the bytes kept here: a third party's file (a GIF service's address) is counted as a file only.
  const [f] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select
        count(*) as files_total,
        count(*) filter (where created_at >= ${from}) as files_in,
        count(*) filter (where created_at >= ${prevFrom} and created_at < ${from}) as files_prev,
        coalesce(sum(file_size) filter (where not is_from_third_party), 0) as bytes_total,
        coalesce(sum(file_size) filter (where not is_from_third_party and created_at >= ${from}), 0) as bytes_in,
        coalesce(sum(file_size) filter (where not is_from_third_party
          and created_at >= ${prevFrom} and created_at < ${from}), 0) as bytes_prev
      from files
      where institution_id = ${institutionId} and created_at < ${to}
        and not is_uploading and not upload_failed`),
  );
  const [a] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select
        count(*) as total,
        count(*) filter (where created_at >= ${from}) as in_period,
        count(*) filter (where created_at >= ${prevFrom} and created_at < ${from}) as previous
      from agents where institution_id = ${institutionId} and created_at < ${to}`),
  );
  // Active: a member (not an agent) with a post, reaction, vote or visit in the window. One index probe
  // per member of the workspace, never a scan of the activity.
  const active = async (start: string, end: string) => {
    const [row] = rowsOf<{ n: unknown }>(
      await db.execute(sql`
        select count(*) as n from members m
        where m.institution_id = ${institutionId} and m.kind = 'user' and exists (
          select 1 from metric_member_quarters q
          where q.member_id = m.id and q.quarter >= ${start} and q.quarter < ${end}
            and (q.posts > 0 or q.reactions > 0 or q.visits > 0))`),
    );
    return Number(row?.n ?? 0);
  };
  const activeNow = await active(from, to);
  const activePrev = w.previous ? await active(prevFrom, from) : null;
  const pick = (prefix: string): Counts => ({
    total: q?.[`${prefix}_total`],
    inPeriod: q?.[`${prefix}_in`],
    previous: q?.[`${prefix}_prev`],
  });
  return {
    ...windowFields(w),
    members: figure(w, pick('members')),
    activeMembers: { total: activeNow, inPeriod: activeNow, previousPeriod: activePrev },
    channels: figure(w, pick('channels')),
    messages: figure(w, pick('messages')),
    files: figure(w, { total: f?.files_total, inPeriod: f?.files_in, previous: f?.files_prev }),
    storageBytes: figure(w, { total: f?.bytes_total, inPeriod: f?.bytes_in, previous: f?.bytes_prev }),
    agents: figure(w, { total: a?.total, inPeriod: a?.in_period, previous: a?.previous }),
  };
}
