// Session rows are kept only while they can matter: a live one, or one that ended within the retention
// window (spec §9, heartbeat retention 30 days), so Settings → Devices and the database do not keep a
// person's every old device forever.
import { lt, or } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Spec §9: a device that has not been heard of for this long is forgotten. */
export const SESSION_RETENTION_DAYS = 30;
/** The purge runs hourly: retention is counted in days, this only bounds how late it acts. */
export const SESSION_PURGE_INTERVAL_MS = 60 * 60_000;

type Lifetime = Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS'>;

/**
 * Deletes sessions revoked more than the retention ago, unused for longer than both the retention and the
 * idle lifetime (an operator's longer SESSION_IDLE_DAYS keeps a session alive, so it must not be purged),
 * or past their absolute lifetime. Returns how many went.
 */
export async function purgeOldSessions(db: Db, lifetime: Lifetime, now = Date.now()): Promise<number> {
  const idleDays = Math.max(SESSION_RETENTION_DAYS, lifetime.SESSION_IDLE_DAYS);
  const purged = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.revokedAt, new Date(now - SESSION_RETENTION_DAYS * DAY_MS)),
        lt(sessions.lastUsedAt, new Date(now - idleDays * DAY_MS)),
        lt(sessions.createdAt, new Date(now - lifetime.SESSION_MAX_DAYS * DAY_MS)),
      ),
    )
    .returning({ id: sessions.id });
  return purged.length;
}

/** Purges every interval until stopped; a failed pass is logged and the next one tries again. */
export function startSessionPurge(
  db: Db,
  lifetime: Lifetime,
  log: { error: (o: object, m: string) => void },
  intervalMs = SESSION_PURGE_INTERVAL_MS,
): () => void {
  const timer = setInterval(() => {
    purgeOldSessions(db, lifetime).catch((err: unknown) => log.error({ err }, 'session purge failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
