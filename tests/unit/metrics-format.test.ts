// What a metrics reader sees and exports: counts in their locale, the change against the previous period
// (or nothing when there is none), and CSV that a spreadsheet opens cell for cell and never runs.
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../src/screens/metrics/csv.ts';
import { changeAgainst, formatCount, formatLocalDay } from '../../src/screens/metrics/format.ts';

describe('metrics figures', () => {
  it("group thousands the reader's way", () => {
    expect(formatCount(1234567, 'en-US')).toBe('1,234,567');
    expect(formatCount(1234567, 'de-DE')).toBe('1.234.567');
  });

  it('say the change against the previous period as a signed percentage', () => {
    expect(changeAgainst(12, 10, 'en-US')).toEqual({ direction: 'up', label: '+20%' });
    expect(changeAgainst(5, 10, 'en-US')).toEqual({ direction: 'down', label: '-50%' });
    expect(changeAgainst(7, 7, 'en-US')).toEqual({ direction: 'flat', label: '0%' });
  });

  it('give the absolute change when the previous period had nothing, and none without a previous period', () => {
    expect(changeAgainst(3, 0, 'en-US')).toEqual({ direction: 'up', label: '+3' });
    expect(changeAgainst(3, null, 'en-US')).toBeNull();
  });

  it("write a bucket's local day in the default format 'MMMM dd, yyyy'", () => {
    expect(formatLocalDay('2026-03-09')).toBe('March 09, 2026');
  });
});

describe('metrics CSV', () => {
  it('quote text, double its quotes and keep commas and line breaks inside the cell', () => {
    expect(toCsv(['Channel', 'Visits'], [['say "hi", all\nteam', 3]])).toBe(
      '"Channel","Visits"\r\n"say ""hi"", all\nteam",3',
    );
  });

  it('never let a name run as a spreadsheet formula', () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell('+1')).toBe('"\'+1"');
    expect(csvCell('@everyone')).toBe('"\'@everyone"');
    // Numbers stay numbers, negative ones included.
    expect(csvCell(-4)).toBe('-4');
    expect(csvCell(null)).toBe('');
  });
});
