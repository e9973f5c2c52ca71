// The metrics presets start at LOCAL midnight in the viewer's zone (spec §9, issue 14): on 23- and 25-hour
// days, in half- and three-quarter-hour zones, and where a DST change skips midnight altogether.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANGE,
  parseRange,
  rangeWindow,
  startOfLocalDay,
} from '../../src/screens/metrics/date-range.ts';

const at = (iso: string) => Date.parse(iso);
const from = (preset: Parameters<typeof rangeWindow>[0], now: string, zone: string) =>
  rangeWindow(preset, at(now), zone).fromDate;

/** The wall clock in `zone` as 'YYYY-MM-DD HH:mm', read independently of the module under test. */
function wallClock(instant: number, zone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

describe('metrics date-range presets', () => {
  it('start today at local midnight on the 23-hour day of a spring-forward (Berlin)', () => {
    expect(from('today', '2026-03-29T20:00:00Z', 'Europe/Berlin')).toBe('2026-03-28T23:00:00.000Z');
    // Seven calendar days, today included: from Monday the 23rd, still on winter time.
    expect(from('7d', '2026-03-29T20:00:00Z', 'Europe/Berlin')).toBe('2026-03-22T23:00:00.000Z');
  });

  it('start today at local midnight on the 25-hour day of a fall-back (Berlin, New York)', () => {
    expect(from('today', '2026-10-25T22:30:00Z', 'Europe/Berlin')).toBe('2026-10-24T22:00:00.000Z');
    expect(from('today', '2026-11-01T12:00:00Z', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z');
  });

  it('count 30 days back across a DST change in local days, not in 24-hour blocks', () => {
    // 10 April (summer time) back to 12 March (winter time): midnight is 23:00Z, not 22:00Z.
    expect(from('30d', '2026-04-10T09:00:00Z', 'Europe/Berlin')).toBe('2026-03-11T23:00:00.000Z');
  });

  it('follow +05:30, +05:45 and +08:45 zones to the minute', () => {
    expect(from('today', '2026-06-10T20:00:00Z', 'Asia/Kolkata')).toBe('2026-06-10T18:30:00.000Z');
    expect(from('today', '2026-06-10T18:00:00Z', 'Asia/Kathmandu')).toBe('2026-06-09T18:15:00.000Z');
    expect(from('today', '2026-01-01T00:00:00Z', 'Australia/Eucla')).toBe('2025-12-31T15:15:00.000Z');
  });

  it('keep 23:59:59.999 local time in the same day', () => {
    // 23:59:59.999 on 10 June in Kathmandu is 18:14:59.999Z.
    expect(from('today', '2026-06-10T18:14:59.999Z', 'Asia/Kathmandu')).toBe('2026-06-09T18:15:00.000Z');
    expect(from('today', '2026-06-10T18:15:00.000Z', 'Asia/Kathmandu')).toBe('2026-06-10T18:15:00.000Z');
  });

  it('begin a day whose midnight a DST change skips at the change itself (Santiago, Beirut)', () => {
    expect(from('today', '2026-09-06T15:00:00Z', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    expect(from('today', '2026-03-29T09:00:00Z', 'Asia/Beirut')).toBe('2026-03-28T22:00:00.000Z');
  });

  it('give all no start date', () => {
    expect(rangeWindow('all', at('2026-06-10T12:00:00Z'), 'Asia/Kolkata')).toEqual({
      fromDate: undefined,
      timezone: 'Asia/Kolkata',
    });
  });

  it('read the preset from the URL, falling back to the default for anything else', () => {
    expect(parseRange('7d')).toBe('7d');
    expect(parseRange('all')).toBe('all');
    expect(parseRange('90d')).toBe(DEFAULT_RANGE);
    expect(parseRange(null)).toBe(DEFAULT_RANGE);
  });

  it('find, for random zones and days, the first minute whose wall clock shows that day', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'America/Santiago',
      'Asia/Beirut',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Eucla',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({
          min: new Date('2020-01-01T00:00:00Z'),
          max: new Date('2030-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        (zone, date) => {
          const day = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
          const start = startOfLocalDay(day, zone);
          const label = `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
          // The start shows that day; one millisecond earlier shows the day before.
          expect(wallClock(start, zone).slice(0, 10)).toBe(label);
          expect(wallClock(start - 1, zone).slice(0, 10) < label).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
