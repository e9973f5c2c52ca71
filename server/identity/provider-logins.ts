// Provider sign-ins in flight. The main window makes a random secret and keeps it; the popup's start URL
// carries only the secret's SHA-256 (the binding) and the state. The server keeps the PKCE verifier and
// the nonce, so neither ever reaches the browser. Finishing needs the secret itself, once, before the
// row expires: a code or state seen by anyone else (a leaked URL, another tab) is worth nothing.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { identityLogins } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import type { VerifiedIdentity } from './identity-accounts.ts';

const b64url = (bytes: Buffer) => bytes.toString('base64url');
export const sha256 = (text: string) => b64url(createHash('sha256').update(text).digest());

export type LoginRow = typeof identityLogins.$inferSelect;

export const LOGIN_EXPIRED = 'This sign-in has expired or was already used. Please try again.';

/** Records a new sign-in and returns what the provider's URL needs. */
export async function beginLogin(
  db: Db,
  p: { providerId: string; state: string; binding: string; ttlSeconds: number },
): Promise<{ nonce: string; codeChallenge: string }> {
  const now = Date.now();
  await db.delete(identityLogins).where(lt(identityLogins.expiresAt, new Date(now)));
  const codeVerifier = b64url(randomBytes(32));
  const nonce = b64url(randomBytes(24));
  const inserted = await db
    .insert(identityLogins)
    .values({
      state: p.state,
      providerId: p.providerId,
      bindingHash: p.binding,
      codeVerifier,
      nonce,
      expiresAt: new Date(now + p.ttlSeconds * 1000),
    })
    .onConflictDoNothing({ target: identityLogins.state })
    .returning({ state: identityLogins.state });
  // A state is used once, ever: a start with a state already seen is refused, not restarted.
  if (inserted.length === 0) throw badRequest(LOGIN_EXPIRED);
  return { nonce, codeChallenge: sha256(codeVerifier) };
}

/** Claims the sign-in for the window holding the secret: single use, unexpired, same provider. */
export async function claimLogin(
  db: Db,
  providerId: string,
  state: string,
  secret: string,
): Promise<LoginRow> {
  const [row] = await db
    .update(identityLogins)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(identityLogins.state, state),
        eq(identityLogins.providerId, providerId),
        eq(identityLogins.bindingHash, sha256(secret)),
        isNull(identityLogins.usedAt),
        gt(identityLogins.expiresAt, new Date()),
      ),
    )
    .returning();
  if (!row) throw badRequest(LOGIN_EXPIRED);
  return row;
}

/** Keeps a verified identity that waits for its address to be confirmed by e-mail code. */
export async function holdPending(
  db: Db,
  state: string,
  identity: VerifiedIdentity,
  ttlMs: number,
): Promise<void> {
  await db
    .update(identityLogins)
    .set({ pending: identity, expiresAt: new Date(Date.now() + ttlMs) })
    .where(eq(identityLogins.state, state));
}

/** Takes the pending identity of a claimed sign-in, once; null when there is none (or it expired). */
export async function takePending(db: Db, state: string, secret: string): Promise<LoginRow | null> {
  const [row] = await db
    .select()
    .from(identityLogins)
    .where(
      and(
        eq(identityLogins.state, state),
        eq(identityLogins.bindingHash, sha256(secret)),
        isNotNull(identityLogins.pending),
        gt(identityLogins.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function dropLogin(db: Db, state: string): Promise<void> {
  await db.delete(identityLogins).where(eq(identityLogins.state, state));
}
