// CSV export of a metrics table (RFC 4180): every text cell is quoted with its quotes doubled, so commas,
// quotes and line breaks in channel names and message excerpts stay inside their cell. Names and excerpts
// are written by any member, so a text cell that a spreadsheet would run as a formula (= + - @, tab, CR)
// is prefixed with a single quote; numbers are written as numbers.

export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

/** A header line and one line per row, CRLF-separated as RFC 4180 has it. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

/** Spec §9: a download's temporary link is revoked after 100 ms. */
const REVOKE_AFTER_MS = 100;

/** Saves `csv` as `fileName`; the byte-order mark makes Excel read it as UTF-8. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
