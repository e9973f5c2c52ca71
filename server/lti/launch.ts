// The launch (the platform form-posts its id_token and our state): consumes the state (once, whatever
// the outcome), verifies the token against the platform the state was issued for, provisions the person,
// the course's workspace and the placement's channel, and hands the page a short-lived single-use ltik.
import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { hashToken } from '../auth/tokens.ts';
import { addChannelMember } from '../channels/setup.ts';
import { ltiLaunches, ltiStates } from '../db/schema.ts';
import { CHANNEL_PARAMETER } from './claims.ts';
import { ensureAccount, ensureCourseWorkspace, ensureLinkChannel, ensureMember } from './course.ts';
import { LaunchRefusal, verifyLaunchToken } from './launch-token.ts';
import type { LtiContext } from './lti-context.ts';
import { getPlatform } from './platforms.ts';
import { workspaceRoleOf } from './roles.ts';
import { syncRosterSoon } from './roster.ts';

/** How long the launch page has to exchange its ltik. */
export const LTIK_TTL_MS = 2 * 60_000;

export interface LaunchForm {
  id_token?: unknown;
  state?: unknown;
  error?: unknown;
  error_description?: unknown;
}

export interface CompletedLaunch {
  ltik: string;
  /** Where the login put its state in the platform's storage: the launch page reads it back from there. */
  storage: { target: string; key: string; origin: string } | null;
}

export async function completeLaunch(ctx: LtiContext, form: LaunchForm): Promise<CompletedLaunch> {
  if (typeof form.error === 'string') {
    const said =
      typeof form.error_description === 'string'
        ? form.error_description.slice(0, 200)
        : form.error.slice(0, 60);
    throw new LaunchRefusal(401, `The platform did not sign you in: ${said}`);
  }
  if (
    typeof form.id_token !== 'string' ||
    typeof form.state !== 'string' ||
    form.id_token.length > 65_536 ||
    form.state.length > 200
  )
    throw new LaunchRefusal(400, 'The launch carries no id_token and state.');
  // Single use: the state is gone whether or not what follows succeeds.
  const [state] = await ctx.db
    .delete(ltiStates)
    .where(and(eq(ltiStates.stateHash, hashToken(form.state)), gt(ltiStates.expiresAt, new Date())))
    .returning();
  if (!state)
    throw new LaunchRefusal(
      401,
      'This launch has expired or was already used. Open the activity again from your course.',
    );
  const platform = await getPlatform(ctx.db, state.platformId);
  if (!platform) throw new LaunchRefusal(400, 'This platform is no longer registered in Lantern.');
  const launch = await verifyLaunchToken(ctx.keys, platform, form.id_token, state.nonce);
  if (!launch.context)
    throw new LaunchRefusal(
      400,
      'The launch names no course (context), so Lantern cannot tell which workspace to open.',
    );

  // Refused before anything is created for the person or the course.
  const role = workspaceRoleOf(launch.roles);
  if (launch.deepLinking && role !== 'admin')
    throw new LaunchRefusal(403, 'Only course staff can place a Lantern channel in the course.');
  const userId = await ensureAccount(ctx.db, platform.id, launch.subject, launch.name);
  const institutionId = await ensureCourseWorkspace(ctx.db, platform, launch.context);
  const { memberId } = await ensureMember(ctx.db, institutionId, userId, role);
  let channelId: string | null = null;
  if (launch.resourceLink) {
    const chosen = launch.custom[CHANNEL_PARAMETER];
    channelId = await ensureLinkChannel(
      ctx.db,
      platform.id,
      institutionId,
      launch.resourceLink,
      typeof chosen === 'string' ? chosen : null,
    );
    await addChannelMember(ctx.db, channelId, memberId);
  }
  ctx.realtime.joinInstitution(userId, institutionId);
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'members' });
  if (launch.membershipsUrl)
    syncRosterSoon(ctx, platform, launch.context.id, institutionId, launch.membershipsUrl);

  const ltik = randomBytes(32).toString('base64url');
  await ctx.db.delete(ltiLaunches).where(lt(ltiLaunches.expiresAt, new Date()));
  await ctx.db.insert(ltiLaunches).values({
    ltikHash: hashToken(ltik),
    platformId: platform.id,
    userId,
    institutionId,
    channelId,
    stateHash: state.storageKey ? hashToken(form.state) : null,
    deepLinking: launch.deepLinking ? { ...launch.deepLinking, deploymentId: launch.deploymentId } : null,
    expiresAt: new Date(Date.now() + LTIK_TTL_MS),
  });
  const storage =
    state.storageTarget && state.storageKey
      ? { target: state.storageTarget, key: state.storageKey, origin: new URL(platform.authLoginUrl).origin }
      : null;
  return { ltik, storage };
}
