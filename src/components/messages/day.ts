// Day separators and times in the message list (date-fns); spec §9 default date format 'MMMM dd, yyyy'.
import { format, isSameYear, isToday, isYesterday } from 'date-fns';
import { DEFAULT_DATE_FORMAT } from './date-format.ts';

export function dayLabel(date: Date, now: Date = new Date()): string {
  if (isToday(date)) return 'Today';
  if (isYesterday(date)) return 'Yesterday';
  if (isSameYear(date, now)) return format(date, 'EEEE, MMMM d');
  return format(date, DEFAULT_DATE_FORMAT);
}

export function timeLabel(date: Date): string {
  return format(date, 'h:mm a');
}

export function fullTimeLabel(date: Date): string {
  return format(date, `${DEFAULT_DATE_FORMAT} 'at' h:mm a`);
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
