// Who may become a user and who may create workspaces: the operator's SIGNUP and WORKSPACE_CREATION
// settings. People who already have an account always sign in, whatever SIGNUP says now.
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { invitations, users } from '../db/schema.ts';
import { forbidden } from '../errors.ts';

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Refuses (403) to create an account for `email` when SIGNUP does not allow it. Checked before a code is
 * mailed, so a refused address gets no mail, and again before the user row is created.
 */
export async function requireSignupAllowed(db: Db, config: Pick<Config, 'SIGNUP'>, email: string) {
  const policy = config.SIGNUP;
  if (policy.kind === 'open') return;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) return;
  if (policy.kind === 'domains') {
    if (policy.domains.includes(domainOf(email))) return;
    throw forbidden(
      'New accounts on this server are limited to certain e-mail domains. Sign in with your work address or ask the operator.',
    );
  }
  const [invited] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(eq(invitations.email, email))
    .limit(1);
  if (invited) return;
  throw forbidden(
    'New accounts on this server are by invitation only. Ask someone in a workspace to invite this address.',
  );
}

/** Refuses (403) to let `email` create a workspace when WORKSPACE_CREATION does not list it. */
export function requireWorkspaceCreationAllowed(config: Pick<Config, 'WORKSPACE_CREATION'>, email: string) {
  const policy = config.WORKSPACE_CREATION;
  if (policy.kind === 'anyone' || policy.emails.includes(email.toLowerCase())) return;
  throw forbidden(
    'Creating workspaces on this server is limited to people the operator chose. Ask to be invited to a workspace instead.',
  );
}
