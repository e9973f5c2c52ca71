// Opaque access tokens: random bytes handed to the client once, stored only as a SHA-256 hash.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { liveSessionCondition, type SessionLifetime, touchIsDue } from './session-lifetime.ts';

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a client's string could be one of our tokens (43 characters): anything longer is not hashed. */
export const mayBeToken = (token: string | null | undefined): token is string =>
  typeof token === 'string' && token.length > 0 && token.length <= 200;

export interface AuthSession {
  sessionId: string;
  userId: string;
}

/**
 * The live (not revoked, not expired) session behind a token, or null. Used by the REST auth hook; socket
 * handshakes read theirs together by the same rules (server/realtime/handshakes.ts). Using a session
 * counts as activity: its last-active time moves forward, at most once per SESSION_TOUCH_INTERVAL_MS, so
 * idle expiry only ends sessions nobody uses.
 */
export async function findSession(
  db: Db,
  lifetime: SessionLifetime,
  token: string | undefined | null,
): Promise<AuthSession | null> {
  if (!mayBeToken(token)) return null;
  const now = Date.now();
  const [row] = await db
    .select({ sessionId: sessions.id, userId: sessions.userId, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hashToken(token)), liveSessionCondition(lifetime, now)))
    .limit(1);
  if (!row) return null;
  if (touchIsDue(row.lastUsedAt, now)) {
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(sessions.id, row.sessionId));
  }
  return { sessionId: row.sessionId, userId: row.userId };
}
