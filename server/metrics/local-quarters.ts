// Sums of the workspace's quarter-hour rollup by local time in the viewer's zone. The zone's offsets come
// from ICU (server/metrics/zone.ts) as spans of constant offset; the database adds each span's offset to
// its quarters, so 23- and 25-hour days, the repeated fall-back hour and +05:45 are exact.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import type { MetricWindow } from './window.ts';
import { offsetSpans } from './zone.ts';

/** The first quarter with any rollup row: where a window without a start begins. */
export async function firstQuarter(db: Db, institutionId: string): Promise<Date | null> {
  const [row] = rowsOf<{ first: string | Date | null }>(
    await db.execute(
      sql`select min(quarter) as first from metric_quarters
        where institution_id = ${institutionId} and (messages <> 0 or channels <> 0 or members <> 0)`,
    ),
  );
  return row?.first ? new Date(row.first) : null;
}

/**
 * `select` over `l` (the quarter's local wall-clock time, a timestamp without zone) and `q` (the
 * metric_quarters row), for the quarters in [start, end).
 */
export async function sumByLocalTime<T>(
  db: Db,
  institutionId: string,
  w: MetricWindow,
  start: Date,
  select: SQL,
  groupBy: SQL,
  where: SQL = sql`true`,
): Promise<T[]> {
  // No rows before the workspace's first quarter: a window from the year 1 costs no more than "all".
  const [first] = rowsOf<{ first: string | Date | null }>(
    await db.execute(
      sql`select min(quarter) as first from metric_quarters where institution_id = ${institutionId}`,
    ),
  );
  if (!first?.first) return [];
  const from = Math.max(start.getTime(), new Date(first.first).getTime());
  if (from >= w.to.getTime()) return [];
  const spans = offsetSpans(w.timezone, from, w.to.getTime()).map((s) => ({
    start: new Date(s.start).toISOString(),
    stop: new Date(s.end).toISOString(),
    off: s.offsetMinutes,
  }));
  if (spans.length === 0) return [];
  return rowsOf<T>(
    await db.execute(sql`
      select ${select} from (
        select q.*, (q.quarter at time zone 'UTC') + make_interval(mins => s.off) as l
        from jsonb_to_recordset(${JSON.stringify(spans)}::jsonb) as s(start timestamptz, stop timestamptz, off int)
        join metric_quarters q
          on q.institution_id = ${institutionId} and q.quarter >= s.start and q.quarter < s.stop
      ) q where ${where} group by ${groupBy}`),
  );
}
