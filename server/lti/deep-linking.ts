// Deep Linking: the instructor picked a channel of the course's workspace; the tool answers the platform
// with a signed LtiDeepLinkingResponse naming a placement that opens that channel.
import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { LtiDeepLinkResponse } from '../../schemas/protocol/index.ts';
import { requireChannel, requireWorkspaceAdmin } from '../access.ts';
import { hashToken } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { ltiLaunches } from '../db/schema.ts';
import { badRequest, forbidden } from '../errors.ts';
import type { Secrets } from '../secrets.ts';
import { CHANNEL_PARAMETER, CLAIM } from './claims.ts';
import { getPlatform, toolUrls } from './platforms.ts';
import { toolKey } from './tool-key.ts';

export async function answerDeepLink(
  ctx: { db: Db; config: Config; secrets: Secrets },
  userId: string,
  deepLinkToken: string,
  channelId: string,
): Promise<LtiDeepLinkResponse> {
  const [row] = await ctx.db
    .select()
    .from(ltiLaunches)
    .where(
      and(
        eq(ltiLaunches.ltikHash, hashToken(`deep-link:${deepLinkToken}`)),
        eq(ltiLaunches.userId, userId),
        gt(ltiLaunches.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!row?.deepLinking)
    throw forbidden('This course placement has expired. Start it again from your course.');
  await requireWorkspaceAdmin(ctx.db, row.institutionId, userId);
  const channel = await requireChannel(ctx.db, row.institutionId, channelId);
  if (channel.type !== 'public') throw badRequest('Only a public channel can be placed in a course.');
  const platform = await getPlatform(ctx.db, row.platformId);
  if (!platform) throw forbidden('This platform is no longer registered in Lantern.');
  await ctx.db.delete(ltiLaunches).where(eq(ltiLaunches.ltikHash, row.ltikHash));

  const key = await toolKey(ctx.secrets);
  const jwt = await new SignJWT({
    nonce: randomBytes(16).toString('base64url'),
    [CLAIM.messageType]: 'LtiDeepLinkingResponse',
    [CLAIM.version]: '1.3.0',
    [CLAIM.deploymentId]: row.deepLinking.deploymentId,
    ...(row.deepLinking.data !== null ? { [CLAIM.deepLinkingData]: row.deepLinking.data } : {}),
    [CLAIM.contentItems]: [
      {
        type: 'ltiResourceLink',
        title: `#${channel.name}`,
        url: toolUrls(ctx.config).launchUrl,
        custom: { [CHANNEL_PARAMETER]: channel.id },
      },
    ],
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key.privateKey);
  return { returnUrl: row.deepLinking.returnUrl, jwt };
}
