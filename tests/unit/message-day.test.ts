// The message list's grouping: one person's messages within five minutes on the same local day read as one
// group; a new local day starts with a separator.
import { describe, expect, it } from 'vitest';
import { continuesGroup, startsNewDay } from '../../src/components/messages/day.ts';

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
