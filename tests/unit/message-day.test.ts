// The message list's grouping: one person's messages within five minutes on the same local day read as one
// group; a new local day starts with a separator.
import { format, isSameYear, isToday, isYesterday } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATE_FORMAT } from '../../src/components/messages/date-format.ts';
import {
  continuesGroup,
  dayLabel,
  fullTimeLabel,
  startsNewDay,
  timeLabel,
} from '../../src/components/messages/day.ts';

const at = (hours: number, minutes: number, day = 14) => new Date(2026, 4, day, hours, minutes).toISOString();
const msg = (memberId: string, createdAt: string, status = 'confirmed') => ({ memberId, createdAt, status });

describe('message grouping', () => {
  it('groups one person within five minutes, not after, not someone else, not after a failed one', () => {
    expect(continuesGroup(msg('a', at(9, 0)), msg('a', at(9, 4)))).toBe(true);
    expect(continuesGroup(msg('a', at(9, 0)), msg('a', at(9, 5)))).toBe(false);
    expect(continuesGroup(msg('a', at(9, 0)), msg('b', at(9, 1)))).toBe(false);
    expect(continuesGroup(msg('a', at(9, 0), 'failed'), msg('a', at(9, 1)))).toBe(false);
    expect(continuesGroup(undefined, msg('a', at(9, 1)))).toBe(false);
  });

  it('starts a new day at local midnight, even two minutes apart, and not within a day', () => {
    expect(startsNewDay(msg('a', at(23, 59, 14)), msg('a', at(0, 1, 15)))).toBe(true);
    expect(continuesGroup(msg('a', at(23, 59, 14)), msg('a', at(0, 1, 15)))).toBe(false);
    expect(startsNewDay(msg('a', at(0, 1)), msg('a', at(23, 59)))).toBe(false);
    expect(startsNewDay(undefined, msg('a', at(9, 0)))).toBe(true);
    // The same message object asked twice (the list asks on every render) answers the same.
    const first = msg('a', at(8, 0, 1));
    const later = msg('a', at(8, 0, 2));
    expect([startsNewDay(first, later), startsNewDay(first, later)]).toEqual([true, true]);
  });
});

// The labels are written out by hand (date-fns stays off the channel route's first scripts); they must
// read exactly as date-fns formatted them before.
describe('message times and day separators', () => {
  const now = new Date();
  const viaDateFns = (date: Date) => ({
    day: isToday(date)
      ? 'Today'
      : isYesterday(date)
        ? 'Yesterday'
        : isSameYear(date, now)
          ? format(date, 'EEEE, MMMM d')
          : format(date, DEFAULT_DATE_FORMAT),
    time: format(date, 'h:mm a'),
    full: format(date, `${DEFAULT_DATE_FORMAT} 'at' h:mm a`),
  });
  // Every hour of a day (midnight and noon among them), single-digit days and minutes, the days around
  // today, a new year's eve and dates in other years.
  const dates = [
    ...Array.from({ length: 24 }, (_, h) => new Date(2025, 2, 3, h, h % 2 === 0 ? 5 : 59)),
    ...Array.from({ length: 12 }, (_, m) => new Date(now.getFullYear(), m, 1 + m * 2, 12, 0)),
    ...[-3, -2, -1, 0].map((d) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + d, 0, 0)),
    ...[-1, 0].map((d) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + d, 23, 59)),
    new Date(2024, 11, 31, 23, 59),
    new Date(1999, 0, 9, 0, 7),
  ];

  it('reads as date-fns wrote the same patterns', () => {
    const ours = dates.map((date) => ({
      day: dayLabel(date),
      time: timeLabel(date),
      full: fullTimeLabel(date),
    }));
    expect(ours).toEqual(dates.map(viaDateFns));
    expect(timeLabel(new Date(2025, 0, 1, 0, 5))).toBe('12:05 AM');
    expect(fullTimeLabel(new Date(2025, 10, 3, 15, 5))).toBe('November 03, 2025 at 3:05 PM');
  });
});
