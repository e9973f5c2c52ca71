// Opaque access tokens: random bytes handed to the client once, stored only as a SHA-256 hash.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface AuthSession {
  sessionId: string;
  userId: string;
}

/** The live (not revoked) session behind a token, or null. Used by the REST auth hook and the socket. */
export async function findSession(db: Db, token: string | undefined | null): Promise<AuthSession | null> {
  if (!token || token.length > 200) return null;
  const rows = await db
    .select({ sessionId: sessions.id, userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
    .limit(1);
  return rows[0] ?? null;
}
