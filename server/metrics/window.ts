// The window a metrics answer covers, as the server resolves it from the query: [fromDate, toDate) in
// whole UTC quarter hours (the rollups' grain; every local midnight and hour of a current IANA zone is on
// one), the previous window of equal length, and the viewer's zone.
import type { MetricWindowQuery } from '../../schemas/protocol/index.ts';
import { badRequest } from '../errors.ts';

export const QUARTER_MS = 15 * 60_000;

export interface MetricWindow {
  /** null: since the workspace began (preset "all"). */
  from: Date | null;
  to: Date;
  /** [from − (to − from), from); null without a start. */
  previous: { from: Date; to: Date } | null;
  timezone: string;
}

/** fromDate down and toDate up to the quarter hour, so a window never cuts a quarter in two. */
export function resolveWindow(query: MetricWindowQuery, now = Date.now()): MetricWindow {
  const toMs = Math.ceil((query.toDate ? Date.parse(query.toDate) : now) / QUARTER_MS) * QUARTER_MS;
  const fromMs = query.fromDate ? Math.floor(Date.parse(query.fromDate) / QUARTER_MS) * QUARTER_MS : null;
  if (fromMs !== null && fromMs >= toMs) throw badRequest('fromDate must be before toDate.');
  const timezone = query.timezone ?? 'UTC';
  const from = fromMs === null ? null : new Date(fromMs);
  const to = new Date(toMs);
  const previous = fromMs === null ? null : { from: new Date(2 * fromMs - toMs), to: new Date(fromMs) };
  return { from, to, previous, timezone };
}

/** The window as the answer states it. */
export const windowFields = (w: MetricWindow) => ({
  fromDate: w.from ? w.from.toISOString() : null,
  toDate: w.to.toISOString(),
  timezone: w.timezone,
});
