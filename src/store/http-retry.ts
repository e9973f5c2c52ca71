// When the REST client tries a call again (spec §9): on 408, 409, 425, 429, 500, 502, 503 and 504 only;
// a read once, a write never unless it is idempotent by its key (a genId or opId the server applies once);
// after the server's Retry-After when it gives one, else after a second. A wait longer than a person
// would sit through is not taken: the call fails with the server's message instead.

export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/** Wait when the server names none. */
export const DEFAULT_RETRY_DELAY_MS = 1_000;
/** The longest Retry-After honoured; beyond it the call fails at once. */
export const MAX_RETRY_WAIT_MS = 30_000;

/** Spec §9: default retry 1 for reads, 0 for writes; a write idempotent by its key is retried like a read. */
export function retriesFor(method: string, idempotent: boolean): number {
  const read = method === 'GET' || method === 'HEAD';
  return read || idempotent ? 1 : 0;
}

/**
 * Milliseconds to wait before trying again after `status`, or null when the call must not be tried again
 * (another status, or a Retry-After beyond MAX_RETRY_WAIT_MS). Retry-After is seconds or an HTTP date.
 */
export function retryDelayMs(status: number, retryAfter: string | null, now = Date.now()): number | null {
  if (!RETRY_STATUSES.has(status)) return null;
  if (retryAfter === null || retryAfter.trim() === '') return DEFAULT_RETRY_DELAY_MS;
  const value = retryAfter.trim();
  const wait = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  if (Number.isNaN(wait)) return DEFAULT_RETRY_DELAY_MS;
  const ms = Math.max(0, wait);
  return ms > MAX_RETRY_WAIT_MS ? null : ms;
}
