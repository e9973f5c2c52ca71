// Local time in an IANA zone, from the same ICU data (Intl) the query validation uses: a zone's offset at
// an instant, the spans of constant offset within a window (split at daylight-saving changes), and the
// instant a local day begins (which is not always midnight, and days last 23 or 25 hours).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface LocalParts {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localParts(timeZone: string, instant: number): LocalParts {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return {
    year: p.year ?? 0,
    month: p.month ?? 1,
    day: p.day ?? 1,
    hour: p.hour ?? 0,
    minute: p.minute ?? 0,
    second: p.second ?? 0,
  };
}

/** Local wall-clock minus UTC at this instant, in whole minutes. */
export function offsetMinutesAt(timeZone: string, instant: number): number {
  const p = localParts(timeZone, instant);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  // The parts have no milliseconds: compare with the instant's whole second.
  return Math.round((wall - (instant - (((instant % 1000) + 1000) % 1000))) / MINUTE);
}

/** A span [start, end) in which the zone's offset does not change. */
export interface OffsetSpan {
  start: number;
  end: number;
  offsetMinutes: number;
}

/** Zones change offset at most a few times a year; sampling twice a day cannot miss one. */
const SAMPLE_STEP = 12 * HOUR;

/** The spans of constant offset covering [start, end), each change found to the minute. */
export function offsetSpans(timeZone: string, start: number, end: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let spanStart = start;
  let offset = offsetMinutesAt(timeZone, start);
  let t = start;
  while (t < end) {
    const next = Math.min(t + SAMPLE_STEP, end);
    const nextOffset = offsetMinutesAt(timeZone, next === end ? end - 1 : next);
    if (nextOffset !== offset) {
      // Binary search for the first minute with the new offset.
      let lo = Math.floor(t / MINUTE);
      let hi = Math.ceil(next / MINUTE);
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetMinutesAt(timeZone, mid * MINUTE) === offset) lo = mid;
        else hi = mid;
      }
      const change = Math.min(Math.max(hi * MINUTE, start), end);
      if (change > spanStart) spans.push({ start: spanStart, end: change, offsetMinutes: offset });
      spanStart = change;
      offset = offsetMinutesAt(timeZone, change);
      t = change;
      continue;
    }
    t = next;
  }
  if (end > spanStart) spans.push({ start: spanStart, end, offsetMinutes: offset });
  return spans;
}

/** A local calendar date. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export const dateKey = (d: LocalDate) =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** Calendar arithmetic on a local date (no zone involved). */
export function addDays(d: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

const compareDates = (a: LocalDate, b: LocalDate) => a.year - b.year || a.month - b.month || a.day - b.day;

/**
 * The instant the local day begins: usually local midnight, but where a zone skips midnight (a change at
 * 00:00) the first instant that has this date.
 */
export function startOfLocalDay(timeZone: string, date: LocalDate): number {
  const utcMidnight = Date.UTC(date.year, date.month - 1, date.day);
  // Fast path: midnight exists and the instant before it is the day before.
  for (const guessOffset of [
    offsetMinutesAt(timeZone, utcMidnight),
    offsetMinutesAt(timeZone, utcMidnight - 14 * HOUR),
    offsetMinutesAt(timeZone, utcMidnight + 14 * HOUR),
  ]) {
    const candidate = utcMidnight - guessOffset * MINUTE;
    const here = localParts(timeZone, candidate);
    if (compareDates(here, date) === 0 && here.hour === 0 && here.minute === 0 && here.second === 0) {
      const before = localParts(timeZone, candidate - 1000);
      if (compareDates(before, date) < 0) return candidate;
    }
  }
  // Midnight skipped: the first minute whose local date is this date or later.
  let lo = Math.floor((utcMidnight - 26 * HOUR) / MINUTE);
  let hi = Math.ceil((utcMidnight + 26 * HOUR) / MINUTE);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (compareDates(localParts(timeZone, mid * MINUTE), date) < 0) lo = mid;
    else hi = mid;
  }
  return hi * MINUTE;
}

export const localDateOf = (timeZone: string, instant: number): LocalDate => localParts(timeZone, instant);

/** ISO weekday of a local date: Monday 1 … Sunday 7. */
export const isoWeekday = (d: LocalDate) => {
  const w = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return w === 0 ? 7 : w;
};
