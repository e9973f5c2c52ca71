// When a message was written, as the server stores it (createdAt). A message written offline waits in the
// sender's outbox and is delivered later; its row should show when it was written, not when it arrived.
// The client's genId is a UUIDv7 whose first 48 bits are the millisecond it was written (RFC 9562 §5.7),
// so that time travels with every post without a field of its own. It is the client's clock, so it is
// bounded (decision 0044): never later than the server's now (a fast clock or a forged id cannot date a
// message in the future) and never older than WRITTEN_AT_MAX_AGE_MS (a slow clock or a forged id cannot
// slip a message in among last year's). Outside the bounds, or for a genId that is not a UUIDv7, the
// server's own time is used, as before.

/** How long a message may have waited in an outbox and still keep its written time: 7 days. */
export const WRITTEN_AT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Milliseconds since the epoch encoded in a UUIDv7, or null when `genId` is not one. */
export function uuidV7Time(genId: string): number | null {
  const hex = genId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex) || hex[12] !== '7' || !/^[89ab]$/i.test(hex[16] ?? '')) return null;
  return Number.parseInt(hex.slice(0, 12), 16);
}

/** The createdAt to store for a post whose genId is `genId`, received at `now`. */
export function writtenAt(genId: string, now: Date): Date {
  const written = uuidV7Time(genId);
  if (written === null) return now;
  if (written > now.getTime() || written < now.getTime() - WRITTEN_AT_MAX_AGE_MS) return now;
  return new Date(written);
}
