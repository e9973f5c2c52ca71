// Channels created per local day, week (Monday first) or month in the viewer's zone, every bucket of the
// window listed in order with empty ones included.
import { sql } from 'drizzle-orm';
import type { ChannelCreationTrendResponse, MetricPeriod } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { badRequest } from '../errors.ts';
import { firstQuarter, sumByLocalTime } from './local-quarters.ts';
import { type MetricWindow, windowFields } from './window.ts';
import { addDays, dateKey, isoWeekday, type LocalDate, localDateOf, startOfLocalDay } from './zone.ts';

/** About ten years of days: beyond it a day-by-day chart is unreadable and the answer large. */
const MAX_BUCKETS = 3700;

/** The first local day of the bucket a day falls in. */
export function bucketOf(d: LocalDate, period: MetricPeriod): LocalDate {
  if (period === 'day') return d;
  if (period === 'week') return addDays(d, 1 - isoWeekday(d));
  return { year: d.year, month: d.month, day: 1 };
}

function nextBucket(d: LocalDate, period: MetricPeriod): LocalDate {
  if (period === 'day') return addDays(d, 1);
  if (period === 'week') return addDays(d, 7);
  return d.month === 12
    ? { year: d.year + 1, month: 1, day: 1 }
    : { year: d.year, month: d.month + 1, day: 1 };
}

export async function channelCreationTrend(
  db: Db,
  institutionId: string,
  w: MetricWindow,
  period: MetricPeriod,
): Promise<ChannelCreationTrendResponse> {
  const base = { ...windowFields(w), period, weekStartsOn: 'monday' as const };
  const start = w.from ?? (await firstQuarter(db, institutionId));
  if (!start) return { ...base, buckets: [] };
  const tz = w.timezone;
  const first = bucketOf(localDateOf(tz, start.getTime()), period);
  const last = localDateOf(tz, w.to.getTime() - 1);
  const keys: LocalDate[] = [];
  for (let d = first; dateKey(d) <= dateKey(last); d = nextBucket(d, period)) {
    keys.push(d);
    if (keys.length > MAX_BUCKETS)
      throw badRequest(
        `That window has more than ${MAX_BUCKETS} ${period}s; choose a shorter window or a longer period.`,
      );
  }
  const counts = new Map<string, number>();
  const rows = await sumByLocalTime<{ day: string; n: unknown }>(
    db,
    institutionId,
    { ...w, from: start },
    start,
    sql`to_char(l, 'YYYY-MM-DD') as day, sum(channels) as n`,
    sql`1`,
    sql`q.channels <> 0`,
  );
  for (const r of rows) {
    const [y, m, d] = r.day.split('-').map(Number);
    const key = dateKey(bucketOf({ year: y ?? 0, month: m ?? 1, day: d ?? 1 }, period));
    counts.set(key, (counts.get(key) ?? 0) + Number(r.n));
  }
  return {
    ...base,
    buckets: keys.map((d) => ({
      date: dateKey(d),
      start: new Date(startOfLocalDay(tz, d)).toISOString(),
      count: counts.get(dateKey(d)) ?? 0,
    })),
  };
}
