// The client benchmark's table: one per store size, each figure beside its floor, its ratio and its goal.

export function median(values: (number | null)[]): number | null {
  const ok = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (ok.length === 0) return null;
  const mid = Math.floor(ok.length / 2);
  return ok.length % 2 ? (ok[mid] as number) : ((ok[mid - 1] as number) + (ok[mid] as number)) / 2;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export const ms = (v: number | null): string =>
  v === null ? '—' : `${v.toLocaleString('en', { maximumFractionDigits: v < 100 ? 1 : 0 })} ms`;
export const kb = (bytes: number | null): string =>
  bytes === null ? '—' : `${(bytes / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} kB`;
export const ratio = (a: number | null, b: number | null): string =>
  a === null || b === null || b === 0 ? '—' : `${(a / b).toFixed(2)}×`;

export interface Row {
  what: string;
  figure: string;
  floor?: string;
  ratio?: string;
  goal?: string;
  /** Whether the goal is met; undefined when the row has no goal. */
  met?: boolean | undefined;
}

export function table(title: string, rows: Row[]): string {
  const head = ['', 'figure', 'floor', 'ratio', 'goal', ''];
  const cells = rows.map((r) => [
    r.what,
    r.figure,
    r.floor ?? '',
    r.ratio ?? '',
    r.goal ?? '',
    r.met === undefined ? '' : r.met ? 'met' : 'NOT met',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) =>
    c
      .map((s, i) => (i === 0 ? s.padEnd(widths[i] as number) : s.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [title, line(head), ...cells.map(line)].join('\n');
}
