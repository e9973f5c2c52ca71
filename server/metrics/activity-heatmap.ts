// Messages by local weekday (Monday first) and local hour within the window, in the viewer's zone.
import { sql } from 'drizzle-orm';
import type { HourlyActivityHeatmapResponse } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { firstQuarter, sumByLocalTime } from './local-quarters.ts';
import { type MetricWindow, windowFields } from './window.ts';

export async function hourlyActivityHeatmap(
  db: Db,
  institutionId: string,
  w: MetricWindow,
): Promise<HourlyActivityHeatmapResponse> {
  const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
  let total = 0;
  const start = w.from ?? (await firstQuarter(db, institutionId));
  if (start) {
    const rows = await sumByLocalTime<{ dow: unknown; hour: unknown; n: unknown }>(
      db,
      institutionId,
      w,
      start,
      sql`extract(isodow from l)::int as dow, extract(hour from l)::int as hour, sum(messages) as n`,
      sql`1, 2`,
      sql`q.messages <> 0`,
    );
    for (const r of rows) {
      const row = grid[Number(r.dow) - 1];
      if (!row) continue;
      row[Number(r.hour)] = Number(r.n);
      total += Number(r.n);
    }
  }
  return { ...windowFields(w), weekStartsOn: 'monday', grid, total };
}
