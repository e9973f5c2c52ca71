// When a session stops being live: revoked, idle longer than SESSION_IDLE_DAYS, or older than
// SESSION_MAX_DAYS. One SQL condition used by every lookup, so an expired token is refused exactly like a
// revoked one (REST 401 'session invalid', socket connect_error 'session invalid') and lists never show it.
import { and, gt, isNull, type SQL } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { sessions } from '../db/schema.ts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * last_used_at is written at most this often per session: often enough for "last active" in Settings and
 * for idle expiry measured in days, rare enough that every request does not write a row.
 */
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60_000;

export type SessionLifetime = Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS'>;

/** The rows of `sessions` that may still authenticate at `now`. */
export function liveSessionCondition(lifetime: SessionLifetime, now = Date.now()): SQL {
  const condition = and(
    isNull(sessions.revokedAt),
    gt(sessions.lastUsedAt, new Date(now - lifetime.SESSION_IDLE_DAYS * DAY_MS)),
    gt(sessions.createdAt, new Date(now - lifetime.SESSION_MAX_DAYS * DAY_MS)),
  );
  if (!condition) throw new Error('and() of three conditions is never empty');
  return condition;
}

/** Whether a session last written at `lastUsedAt` is due for a new last-active time. */
export const touchIsDue = (lastUsedAt: Date, now = Date.now()) =>
  now - lastUsedAt.getTime() >= SESSION_TOUCH_INTERVAL_MS;
