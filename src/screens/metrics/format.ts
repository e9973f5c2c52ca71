// How metrics read: counts with Intl.NumberFormat in the reader's locale, the change against the previous
// period as a signed percentage, bucket days in the spec's default date format 'MMMM dd, yyyy'.
import { formatDate } from '../../components/messages/date-format.ts';

const counts = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = counts.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    counts.set(key, format);
  }
  return format;
}

/** 12,345 in en-US, 12.345 in de-DE: the reader's locale unless one is given (tests). */
export function formatCount(n: number, locale?: string): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/** 1.2K, 3.4M: for chart axes, where space is short. */
export function formatCompact(n: number, locale?: string): string {
  return numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

/** +12%, −4%, 0%: a relative change (0.12 → +12%). */
export function formatPercentChange(ratio: number, locale?: string): string {
  return numberFormat(locale, {
    style: 'percent',
    signDisplay: 'exceptZero',
    maximumFractionDigits: Math.abs(ratio) < 0.1 ? 1 : 0,
  }).format(ratio);
}

/** +3, −2: an absolute change. */
export function formatSignedCount(n: number, locale?: string): string {
  return numberFormat(locale, { signDisplay: 'exceptZero', maximumFractionDigits: 0 }).format(n);
}

export interface Change {
  direction: 'up' | 'down' | 'flat';
  /** "+12%" against the previous period, or "+3" where the previous period had none to divide by. */
  label: string;
}

/**
 * The change of `current` against `previous` (the previous window of equal length); null when there is
 * no previous window (the range "all") so the screen says nothing rather than something untrue.
 */
export function changeAgainst(current: number, previous: number | null, locale?: string): Change | null {
  if (previous === null) return null;
  const diff = current - previous;
  const direction = diff > 0 ? 'up' : diff < 0 ? 'down' : 'flat';
  if (previous === 0) return { direction, label: formatSignedCount(diff, locale) };
  return { direction, label: formatPercentChange(diff / previous, locale) };
}

/** A bucket's local day ('2026-03-29') in the spec's default format ('March 29, 2026'). */
export function formatLocalDay(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number);
  return formatDate(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1));
}

/** An instant ('2026-03-29T08:00:00Z') as the reader's local day in the default format. */
export function formatInstantDay(iso: string): string {
  return formatDate(new Date(iso));
}

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

/** 0 → "00:00", 13 → "13:00": hours of the heatmap, unambiguous in every locale. */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
