// Users and their sessions: created on first sign-in, renamed, signed out, listed by device.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { User, UserSession, updateUserBody } from '../../schemas/protocol/index.ts';
import { deviceName } from '../auth/device-name.ts';
import { liveSessionCondition, type SessionLifetime } from '../auth/session-lifetime.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { notFound } from '../errors.ts';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/** Users and sessions in the wire shape of schemas/protocol/; a session knows whether it is the caller's. */
export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  profileImage: row.profileImage,
});

export const toSession = (
  row: SessionRow,
  current: Pick<SessionRow, 'id' | 'sessionClientId'>,
): UserSession => ({
  id: row.id,
  userAgent: row.userAgent,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt.toISOString(),
  current: row.id === current.id,
  deviceName: deviceName(row.userAgent),
  sameDevice:
    row.id !== current.id && row.sessionClientId !== null && row.sessionClientId === current.sessionClientId,
});

/** A device id as the client sends it (a SHA-256 in hex); anything else is not recorded. */
export const validSessionClientId = (value: unknown): string | null =>
  typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? value : null;

/** The user with this address, created with the address's local part as name if there is none yet. */
export async function findOrCreateUser(db: Db, email: string): Promise<UserRow> {
  const name = email.split('@')[0] || email;
  // ON CONFLICT keeps two first sign-ins racing on two nodes from creating two users.
  await db
    .insert(users)
    .values({ id: randomUUID(), email, name })
    .onConflictDoNothing({ target: users.email });
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  if (!row) throw new Error(`user ${email} vanished after insert`);
  return row;
}

export async function getUser(db: Db, userId: string): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound('User not found');
  return row;
}

/** Where a sign-in comes from (server/http/signin-device.ts reads it from the request). */
export interface SigninDevice {
  userAgent?: string;
  /** The device id the client sent with its sign-in (spec §3 sessionClientId); else its first ping sets it. */
  sessionClientId?: string | null;
}

/** A new session; the token is returned once and only its hash is stored. */
export async function createSession(
  db: Db,
  userId: string,
  { userAgent, sessionClientId }: SigninDevice,
): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const [session] = await db
    .insert(sessions)
    .values({
      id: randomUUID(),
      userId,
      tokenHash: hashToken(token),
      userAgent: userAgent?.slice(0, 512) ?? null,
      sessionClientId: validSessionClientId(sessionClientId),
    })
    .returning();
  if (!session) throw new Error('session insert returned nothing');
  await db.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, userId));
  return { token, session };
}

export async function updateUser(
  db: Db,
  userId: string,
  patch: z.infer<typeof updateUserBody>,
): Promise<UserRow> {
  const set: Partial<Pick<UserRow, 'name' | 'profileImage'>> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.profileImage !== undefined) set.profileImage = patch.profileImage;
  const [row] = await db.update(users).set(set).where(eq(users.id, userId)).returning();
  if (!row) throw notFound('User not found');
  return row;
}

/** Revokes one session: its token answers 401 from now on, on every node. */
export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** The user's sessions that can still sign requests, most recently active first. */
export async function liveSessions(db: Db, lifetime: SessionLifetime, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), liveSessionCondition(lifetime)))
    .orderBy(desc(sessions.lastUsedAt));
}

/**
 * Revokes one of the user's own live sessions. Someone else's id, a revoked or expired one all answer 404:
 * the caller learns nothing about sessions that are not theirs.
 */
export async function revokeOwnSession(
  db: Db,
  lifetime: SessionLifetime,
  userId: string,
  sessionId: string,
): Promise<void> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), liveSessionCondition(lifetime)))
    .returning({ id: sessions.id });
  if (revoked.length === 0) throw notFound('No such session on your account');
}

/** Revokes every live session of the user except `keepSessionId`; returns the ids it revoked. */
export async function revokeOtherSessions(
  db: Db,
  lifetime: SessionLifetime,
  userId: string,
  keepSessionId: string,
): Promise<string[]> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId), liveSessionCondition(lifetime)))
    .returning({ id: sessions.id });
  return revoked.map((r) => r.id);
}

/**
 * Marks the session active now (the client's ping while it is open, even when it makes no requests), and
 * records the device id it names: a session signed in by a provider or a launch learns it here.
 */
export async function touchSession(
  db: Db,
  sessionId: string,
  sessionClientId?: string | null,
): Promise<void> {
  const now = new Date();
  const clientId = validSessionClientId(sessionClientId);
  const [row] = await db
    .update(sessions)
    .set({ lastUsedAt: now, ...(clientId ? { sessionClientId: clientId } : {}) })
    .where(eq(sessions.id, sessionId))
    .returning({ userId: sessions.userId });
  if (row) await db.update(users).set({ lastSeenAt: now }).where(eq(users.id, row.userId));
}
