// Dates follow the spec's default format, and a format with stray letters is refused clearly (spec §5).
import { describe, expect, it } from 'vitest';
import { DateFormatError, formatDate } from '../../src/components/messages/date-format.ts';

const date = new Date(2026, 2, 7, 14, 5);

describe('formatting a date', () => {
  it("uses 'MMMM dd, yyyy' by default", () => {
    expect(formatDate(date)).toBe('March 07, 2026');
  });

  it('accepts tokens and quoted words', () => {
    expect(formatDate(date, "dd/MM/yyyy 'at' HH:mm")).toBe('07/03/2026 at 14:05');
  });

  it('rejects a format with unescaped letters that are not date parts', () => {
    expect(() => formatDate(date, 'MMMM dd, yyyy (jour)')).toThrow(DateFormatError);
    expect(() => formatDate(date, 'jjj')).toThrow(/single quotes/);
  });

  it('rejects an invalid date instead of printing "Invalid Date"', () => {
    expect(() => formatDate('not a date')).toThrow(RangeError);
  });
});
