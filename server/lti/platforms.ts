// Learning platforms registered by a workspace admin: the workspace they were registered from owns them
// (its admins list and remove them), and their course launches create workspaces of their own. A platform
// (issuer, client id) can be registered once on the server, so nobody can register a copy of another
// workspace's platform to catch its launches (decision 0027).
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { LtiPlatform, LtiPlatformBody } from '../../schemas/protocol/index.ts';
import { requireWorkspaceAdmin } from '../access.ts';
import { requireWorkspaceCreationAllowed } from '../auth/signup-policy.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { ltiPlatforms } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { isUniqueViolation } from '../messages/unique-violation.ts';
import { urlRefusal } from '../outbound/address-guard.ts';
import { getUser } from '../services/users.ts';

export type PlatformRow = typeof ltiPlatforms.$inferSelect;

/** The tool's addresses under PUBLIC_URL. */
export const toolUrls = (config: Pick<Config, 'PUBLIC_URL'>) => {
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  return {
    launchUrl: `${base}/lti/launch`,
    keySetUrl: `${base}/lti/keys`,
    loginUrl: (platformId: string) => `${base}/lti/login/${platformId}`,
    loginUrlPattern: `${base}/lti/login/{platform id}`,
    registrationUrl: (code: string) => `${base}/lti/register/${code}`,
  };
};

export const toPlatform = (row: PlatformRow, config: Pick<Config, 'PUBLIC_URL'>): LtiPlatform => ({
  id: row.id,
  name: row.name,
  issuer: row.issuer,
  clientId: row.clientId,
  authLoginUrl: row.authLoginUrl,
  tokenUrl: row.tokenUrl,
  keySetUrl: row.keySetUrl,
  deploymentIds: row.deploymentIds,
  loginUrl: toolUrls(config).loginUrl(row.id),
  createdAt: row.createdAt.toISOString(),
});

export async function getPlatform(db: Db, platformId: string): Promise<PlatformRow | null> {
  const [row] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, platformId)).limit(1);
  return row ?? null;
}

export async function listPlatforms(db: Db, userId: string, institutionId: string): Promise<PlatformRow[]> {
  await requireWorkspaceAdmin(db, institutionId, userId);
  return db
    .select()
    .from(ltiPlatforms)
    .where(eq(ltiPlatforms.institutionId, institutionId))
    .orderBy(asc(ltiPlatforms.createdAt));
}

/**
 * Who may register a platform for a workspace: its admins, where the operator lets anyone sign up (launches
 * mint accounts) and lets them create workspaces (launches create workspaces they own).
 */
export async function requireMayRegister(
  { db, config }: { db: Db; config: Config },
  userId: string,
  institutionId: string,
): Promise<void> {
  await requireWorkspaceAdmin(db, institutionId, userId);
  if (config.SIGNUP.kind !== 'open')
    throw forbidden(
      'This server does not let learning platforms create accounts: sign-up is not open to everyone.',
    );
  requireWorkspaceCreationAllowed(config, (await getUser(db, userId)).email);
}

/** Stores a platform; the caller must administer the workspace. */
export async function registerPlatform(
  { db, config }: { db: Db; config: Config },
  userId: string,
  institutionId: string,
  body: LtiPlatformBody,
): Promise<PlatformRow> {
  await requireMayRegister({ db, config }, userId, institutionId);
  // The server fetches these two; a loopback or private address is refused now, not at the first launch.
  for (const url of [body.keySetUrl, body.tokenUrl]) {
    const refusal = urlRefusal(new URL(url), config.LTI_ALLOW_PRIVATE);
    if (refusal) throw badRequest(`${new URL(url).host}: ${refusal}`);
  }
  try {
    const [row] = await db
      .insert(ltiPlatforms)
      .values({
        id: randomUUID(),
        institutionId,
        registeredBy: userId,
        ...body,
        deploymentIds: [...new Set(body.deploymentIds)],
      })
      .returning();
    if (!row) throw new Error('platform insert returned nothing');
    return row;
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(
        'This platform (issuer and client id) is already registered in Lantern. Ask the workspace that registered it, or the server operator.',
      );
    throw err;
  }
}

export async function removePlatform(db: Db, userId: string, institutionId: string, platformId: string) {
  await requireWorkspaceAdmin(db, institutionId, userId);
  const removed = await db
    .delete(ltiPlatforms)
    .where(and(eq(ltiPlatforms.id, platformId), eq(ltiPlatforms.institutionId, institutionId)))
    .returning({ id: ltiPlatforms.id });
  if (removed.length === 0) throw notFound('Platform not found');
}
