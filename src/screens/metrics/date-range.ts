// The metrics date range (spec §9 presets today, 7d, 30d, all): which preset the URL names, and the
// instant each one starts at, which is LOCAL midnight in the viewer's zone. Pure: the zone and "now" are
// arguments, so every zone (23- and 25-hour days, +05:30, +05:45, +08:45, midnight skipped by a DST
// change) is tested in Node whatever the machine's own zone is.

export const RANGE_PRESETS = ['today', '7d', '30d', 'all'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** What a page opens on when the URL names no (or an unknown) range: a month says more than a day. */
export const DEFAULT_RANGE: RangePreset = '30d';

export const RANGE_LABELS: Record<RangePreset, string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  all: 'All time',
};

/** Calendar days each preset covers, today included; all has no start. */
const PRESET_DAYS: Record<Exclude<RangePreset, 'all'>, number> = { today: 1, '7d': 7, '30d': 30 };

export function parseRange(value: string | null | undefined): RangePreset {
  return (RANGE_PRESETS as readonly string[]).includes(value ?? '') ? (value as RangePreset) : DEFAULT_RANGE;
}

export interface CalendarDay {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar day `instant` falls on in `timeZone`. */
export function localDay(instant: number, timeZone: string): CalendarDay {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const pick = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: pick('year'), month: pick('month'), day: pick('day') };
}

/** Days since 1970-01-01 of a calendar day: ordering and day arithmetic without any zone. */
const dayNumber = (d: CalendarDay) => Math.floor(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);

function addDays(d: CalendarDay, days: number): CalendarDay {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** Zone offsets lie within −12 h … +14 h, so a day's first instant is within 15 h of its UTC midnight. */
const SEARCH_SPAN_MS = 15 * 3_600_000;

/**
 * The first instant of calendar day `day` in `timeZone`. Usually its local midnight; where a DST change
 * skips midnight (America/Santiago, Asia/Beirut…) the day begins at the change, and that is returned.
 * A binary search on the instant, because the local date only ever moves forward as time does, so it
 * holds for every offset and transition without any offset arithmetic to get wrong.
 */
export function startOfLocalDay(day: CalendarDay, timeZone: string): number {
  const target = dayNumber(day);
  const utcMidnight = Date.UTC(day.year, day.month - 1, day.day);
  let lo = utcMidnight - SEARCH_SPAN_MS; // still the day before, in every zone
  let hi = utcMidnight + SEARCH_SPAN_MS; // already that day, in every zone
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (dayNumber(localDay(mid, timeZone)) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

export interface RangeWindow {
  /** ISO instant of the first local day's start; undefined for all (no start date, spec §9). */
  fromDate: string | undefined;
  timezone: string;
}

/**
 * The window of a preset seen from `now` in `timeZone`: today starts at today's local midnight, 7d and
 * 30d at the local midnight 6 and 29 days earlier (seven and thirty calendar days, today included). The
 * window ends now (the server's default toDate).
 */
export function rangeWindow(preset: RangePreset, now: number, timeZone: string): RangeWindow {
  if (preset === 'all') return { fromDate: undefined, timezone: timeZone };
  const today = localDay(now, timeZone);
  const first = addDays(today, 1 - PRESET_DAYS[preset]);
  return { fromDate: new Date(startOfLocalDay(first, timeZone)).toISOString(), timezone: timeZone };
}

/** The browser's IANA zone; UTC where the browser does not say (the server's default too). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
