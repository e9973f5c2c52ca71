// The launch page's exchange: a live ltik (once) for a session of the launched person, and where to go.
// A deep-linking launch keeps its row under a second single-use token, with which the page answers the
// platform once the instructor has picked a channel.
import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { LtiLaunchResponse } from '../../schemas/protocol/index.ts';
import { hashToken } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { ltiLaunches, ltiPlatforms } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';
import { createSession, getUser, type SigninDevice, toUser } from '../services/users.ts';

/** How long an instructor has to pick the channel to place. */
const DEEP_LINK_TTL_MS = 30 * 60_000;

export async function exchangeLaunch(
  db: Db,
  ltik: string,
  state: string | undefined,
  device: SigninDevice,
): Promise<LtiLaunchResponse> {
  // A launch whose login kept its state in the platform's storage is exchanged only with that state: the
  // browser that opens the ltik must be the one that started the login (no login CSRF by a sent link).
  const [pending] = await db
    .select({ stateHash: ltiLaunches.stateHash })
    .from(ltiLaunches)
    .where(and(eq(ltiLaunches.ltikHash, hashToken(ltik)), gt(ltiLaunches.expiresAt, new Date())))
    .limit(1);
  if (pending?.stateHash && pending.stateHash !== hashToken(state ?? ''))
    throw unauthorized(
      'This launch must be opened from the course page that started it. Open the activity again there.',
    );
  const [launch] = await db
    .delete(ltiLaunches)
    .where(and(eq(ltiLaunches.ltikHash, hashToken(ltik)), gt(ltiLaunches.expiresAt, new Date())))
    .returning();
  if (!launch)
    throw unauthorized(
      'This launch link has expired or was already used. Open the activity again from your course.',
    );
  let deepLinkToken: string | null = null;
  if (launch.deepLinking) {
    deepLinkToken = randomBytes(32).toString('base64url');
    await db.insert(ltiLaunches).values({
      ...launch,
      ltikHash: hashToken(`deep-link:${deepLinkToken}`),
      expiresAt: new Date(Date.now() + DEEP_LINK_TTL_MS),
    });
  }
  const user = await getUser(db, launch.userId);
  const { token } = await createSession(db, user.id, device);
  return {
    accessToken: token,
    user: toUser(user),
    institutionId: launch.institutionId,
    channelId: launch.channelId,
    deepLinkToken,
  };
}

/** The origins the launch page for this ltik may be framed by and may post forms to (null: no such launch). */
export async function launchPageOrigins(
  db: Db,
  ltik: string,
): Promise<{ frame: string[]; form: string[] } | null> {
  const [row] = await db
    .select({
      issuer: ltiPlatforms.issuer,
      authLoginUrl: ltiPlatforms.authLoginUrl,
      deepLinking: ltiLaunches.deepLinking,
    })
    .from(ltiLaunches)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiLaunches.platformId))
    .where(and(eq(ltiLaunches.ltikHash, hashToken(ltik)), gt(ltiLaunches.expiresAt, new Date())))
    .limit(1);
  if (!row) return null;
  const frame = [...new Set([new URL(row.issuer).origin, new URL(row.authLoginUrl).origin])];
  const form = row.deepLinking ? [new URL(row.deepLinking.returnUrl).origin] : [];
  return { frame, form };
}
