// Day separators and times in the message list; spec §9 default date format 'MMMM dd, yyyy'. Written out
// rather than with date-fns: these few fixed English patterns are all a row needs, and date-fns' format
// (with its locale) was 20 kB of the channel route's first scripts. tests/unit/message-day.test.ts checks
// them against date-fns' own output of the same patterns.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** 'MMMM dd, yyyy' (DEFAULT_DATE_FORMAT in date-format.ts): November 03, 2026. */
function longDate(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2, '0')}, ${date.getFullYear()}`;
}

export function dayLabel(date: Date, now: Date = new Date()): string {
  if (sameDay(date, now)) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return 'Yesterday';
  // 'EEEE, MMMM d'
  if (date.getFullYear() === now.getFullYear())
    return `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return longDate(date);
}

/** 'h:mm a': 3:05 PM, 12:00 AM. */
export function timeLabel(date: Date): string {
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

export function fullTimeLabel(date: Date): string {
  return `${longDate(date)} at ${timeLabel(date)}`;
}

/** Messages by the same person within five minutes, same day, read as one group without a repeated header. */
const GROUP_WINDOW_MS = 5 * 60_000;

/**
 * A message's time, read once per message object: the list asks for every row on each render, and the
 * window hands the same object while a row is unchanged (src/store/message-window.ts).
 */
const times = new WeakMap<object, { at: number; day: number }>();

function timeOf(m: { createdAt: string }): { at: number; day: number } {
  let t = times.get(m);
  if (!t) {
    const date = new Date(m.createdAt);
    // The local calendar day as one number (isSameDay without building two more dates).
    t = { at: date.getTime(), day: date.getFullYear() * 10_000 + date.getMonth() * 100 + date.getDate() };
    times.set(m, t);
  }
  return t;
}

export function continuesGroup(
  previous: { memberId: string; createdAt: string; status: string } | undefined,
  current: { memberId: string; createdAt: string; status: string },
): boolean {
  if (!previous || previous.memberId !== current.memberId || previous.status === 'failed') return false;
  const a = timeOf(previous);
  const b = timeOf(current);
  return a.day === b.day && b.at - a.at < GROUP_WINDOW_MS;
}

export function startsNewDay(
  previous: { createdAt: string } | undefined,
  current: { createdAt: string },
): boolean {
  return !previous || timeOf(previous).day !== timeOf(current).day;
}
