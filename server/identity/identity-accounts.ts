// Which Lantern user a verified provider identity is. A person is (issuer, subject), never an e-mail
// address: an identity already linked signs in its user whatever address the provider reports now. A new
// identity is linked to the account of its address (or creates one) without more ado only when the
// provider says the address is verified AND the operator made the provider the authority for its domain;
// otherwise the person first proves the address with an e-mail code. That closes both takeovers: linking
// into someone's account, and creating an account in someone's name before they sign up. Decision 0025.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { NAME_MAX } from '../../schemas/protocol/index.ts';
import { isAgentEmail } from '../agents/agents.ts';
import { requireSignupAllowed } from '../auth/signup-policy.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { identities, users } from '../db/schema.ts';
import { badRequest, forbidden } from '../errors.ts';
import { findOrCreateUser, type UserRow } from '../services/users.ts';
import { emailVerified, type IdClaims } from './id-token.ts';

/** The policy of the provider the identity came from (an OIDC provider or the Firebase adapter). */
export interface ProviderPolicy {
  id: string;
  name: string;
  allowedDomains: string[];
  allowSignup: boolean;
  trustedDomains: string[];
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
}

export type Resolution = { kind: 'user'; user: UserRow } | { kind: 'confirm'; identity: VerifiedIdentity };

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);
const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,200}\.[^\s@]{1,60}$/;

function addressOf(provider: ProviderPolicy, claims: IdClaims): string {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!EMAIL.test(email))
    throw badRequest(
      `${provider.name} did not share an e-mail address with Lantern, so this account cannot be used here.`,
    );
  if (isAgentEmail(email)) throw badRequest('This address belongs to an AI agent and cannot sign in');
  return email;
}

function requireDomainAllowed(provider: ProviderPolicy, email: string): void {
  if (provider.allowedDomains.length === 0 || provider.allowedDomains.includes(domainOf(email))) return;
  throw forbidden(
    `Signing in with ${provider.name} is limited to addresses at ${provider.allowedDomains.join(', ')}. Use your work account, or sign in with your e-mail address.`,
  );
}

/** Decides who signs in; links or creates only where the rules above allow it without an e-mail code. */
export async function resolveIdentity(
  db: Db,
  config: Pick<Config, 'SIGNUP'>,
  provider: ProviderPolicy,
  claims: IdClaims,
): Promise<Resolution> {
  const [linked] = await db
    .select()
    .from(identities)
    .where(and(eq(identities.issuer, claims.iss), eq(identities.subject, claims.sub)))
    .limit(1);
  const email = addressOf(provider, claims);
  requireDomainAllowed(provider, email);
  if (linked) {
    await db.update(identities).set({ email, lastUsedAt: new Date() }).where(eq(identities.id, linked.id));
    const [user] = await db.select().from(users).where(eq(users.id, linked.userId)).limit(1);
    if (!user) throw badRequest('This account no longer exists.');
    return { kind: 'user', user };
  }
  const identity = { issuer: claims.iss, subject: claims.sub, email };
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!existing) await requireNewAccountAllowed(db, config, provider, email);
  const trusted = emailVerified(claims) && provider.trustedDomains.includes(domainOf(email));
  if (!trusted) return { kind: 'confirm', identity };
  const user = await linkIdentity(
    db,
    provider,
    identity,
    typeof claims.name === 'string' ? claims.name : null,
  );
  return { kind: 'user', user };
}

export async function requireNewAccountAllowed(
  db: Db,
  config: Pick<Config, 'SIGNUP'>,
  provider: ProviderPolicy,
  email: string,
): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) return;
  if (!provider.allowSignup)
    throw forbidden(
      `New accounts cannot be created with ${provider.name} on this server. Sign in with your e-mail address, or ask the operator.`,
    );
  await requireSignupAllowed(db, config, email);
}

/**
 * Links the identity to the user of its address, creating the user if there is none. Called once the
 * address is known to be the person's (trusted provider, or an e-mail code just checked).
 */
export async function linkIdentity(
  db: Db,
  provider: ProviderPolicy,
  identity: VerifiedIdentity,
  name: string | null,
): Promise<UserRow> {
  const [before] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, identity.email))
    .limit(1);
  let user = await findOrCreateUser(db, identity.email);
  const cleanName = name?.trim().slice(0, NAME_MAX);
  if (!before && cleanName) {
    const [renamed] = await db
      .update(users)
      .set({ name: cleanName })
      .where(eq(users.id, user.id))
      .returning();
    if (renamed) user = renamed;
  }
  // Two sign-ins of the same identity racing: the unique (issuer, subject) keeps one link.
  await db
    .insert(identities)
    .values({
      id: randomUUID(),
      userId: user.id,
      providerId: provider.id,
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
    })
    .onConflictDoNothing({ target: [identities.issuer, identities.subject] });
  const [link] = await db
    .select({ userId: identities.userId })
    .from(identities)
    .where(and(eq(identities.issuer, identity.issuer), eq(identities.subject, identity.subject)))
    .limit(1);
  if (link && link.userId !== user.id) {
    const [owner] = await db.select().from(users).where(eq(users.id, link.userId)).limit(1);
    if (owner) return owner;
  }
  return user;
}
