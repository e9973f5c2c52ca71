// Day separators and times in the message list (date-fns); spec §9 default date format 'MMMM dd, yyyy'.
import { format, isSameDay, isSameYear, isToday, isYesterday } from 'date-fns';
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

export function continuesGroup(
  previous: { memberId: string; createdAt: string; status: string } | undefined,
  current: { memberId: string; createdAt: string; status: string },
): boolean {
  if (!previous || previous.memberId !== current.memberId || previous.status === 'failed') return false;
  const a = new Date(previous.createdAt);
  const b = new Date(current.createdAt);
  return isSameDay(a, b) && b.getTime() - a.getTime() < GROUP_WINDOW_MS;
}

export function startsNewDay(
  previous: { createdAt: string } | undefined,
  current: { createdAt: string },
): boolean {
  return !previous || !isSameDay(new Date(previous.createdAt), new Date(current.createdAt));
}
