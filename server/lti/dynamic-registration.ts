// LTI Dynamic Registration: an admin copies a one-time address from Settings into Moodle or Canvas; the
// platform opens it with its openid_configuration address and a registration token; the tool reads the
// configuration, registers itself at the platform's registration endpoint and stores the platform for the
// admin's workspace. The address is good once, for an hour, and only ever registers into the workspace
// whose admin made it.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { z } from 'zod';
import { hashToken } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { ltiPlatforms, ltiRegistrationLinks } from '../db/schema.ts';
import { isUniqueViolation } from '../messages/unique-violation.ts';
import { urlRefusal } from '../outbound/address-guard.ts';
import { NRPS_SCOPE } from './claims.ts';
import { LaunchRefusal } from './launch-token.ts';
import { PlatformRequestError, platformRequest } from './platform-requests.ts';
import { type PlatformRow, requireMayRegister, toolUrls } from './platforms.ts';

const LINK_TTL_MS = 60 * 60_000;
const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
const PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';

export async function createRegistrationLink(
  ctx: { db: Db; config: Config },
  userId: string,
  institutionId: string,
): Promise<{ url: string; expiresAt: string }> {
  await requireMayRegister(ctx, userId, institutionId);
  const code = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + LINK_TTL_MS);
  await ctx.db.delete(ltiRegistrationLinks).where(lt(ltiRegistrationLinks.expiresAt, new Date()));
  await ctx.db
    .insert(ltiRegistrationLinks)
    .values({ codeHash: hashToken(code), institutionId, createdBy: userId, expiresAt });
  return { url: toolUrls(ctx.config).registrationUrl(code), expiresAt: expiresAt.toISOString() };
}

const url = z.string().max(2048).url();
const openidConfiguration = z.object({
  issuer: url,
  authorization_endpoint: url,
  token_endpoint: url,
  jwks_uri: url,
  registration_endpoint: url,
  [PLATFORM_CONFIGURATION]: z.object({ product_family_code: z.string().max(100).optional() }).optional(),
});
const registrationAnswer = z.object({
  client_id: z.string().min(1).max(255),
  [TOOL_CONFIGURATION]: z.object({ deployment_id: z.string().min(1).max(255).optional() }).optional(),
});

/** What the platform opens: registers the tool there and stores the platform; refusals say why. */
export async function registerDynamically(
  ctx: { db: Db; config: Config },
  code: string,
  query: { openid_configuration?: unknown; registration_token?: unknown },
): Promise<{ platform: PlatformRow; origins: string[] }> {
  if (typeof query.openid_configuration !== 'string' || !URL.canParse(query.openid_configuration))
    throw new LaunchRefusal(
      400,
      'The platform did not give its configuration address (openid_configuration).',
    );
  const [link] = await ctx.db
    .delete(ltiRegistrationLinks)
    .where(
      and(eq(ltiRegistrationLinks.codeHash, hashToken(code)), gt(ltiRegistrationLinks.expiresAt, new Date())),
    )
    .returning();
  if (!link)
    throw new LaunchRefusal(
      401,
      'This registration address has expired or was already used. Make a new one in Lantern.',
    );
  try {
    await requireMayRegister(ctx, link.createdBy, link.institutionId);
  } catch (err) {
    throw new LaunchRefusal(403, (err as Error).message);
  }

  const answer = await platformRequest(ctx.config, query.openid_configuration, {
    headers: { accept: 'application/json' },
  });
  const parsed = openidConfiguration.safeParse(answer.json);
  if (answer.status !== 200 || !parsed.success)
    throw new LaunchRefusal(502, "The platform's configuration could not be read.");
  const cfg = parsed.data;
  for (const address of [cfg.token_endpoint, cfg.jwks_uri, cfg.registration_endpoint]) {
    const refusal = urlRefusal(new URL(address), ctx.config.LTI_ALLOW_PRIVATE);
    if (refusal) throw new LaunchRefusal(400, `${new URL(address).host}: ${refusal}`);
  }

  const id = randomUUID();
  const urls = toolUrls(ctx.config);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (typeof query.registration_token === 'string' && query.registration_token !== '')
    headers.authorization = `Bearer ${query.registration_token}`;
  const registered = await platformRequest(ctx.config, cfg.registration_endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: urls.loginUrl(id),
      redirect_uris: [urls.launchUrl],
      client_name: 'Lantern',
      jwks_uri: urls.keySetUrl,
      token_endpoint_auth_method: 'private_key_jwt',
      scope: NRPS_SCOPE,
      [TOOL_CONFIGURATION]: {
        domain: new URL(urls.launchUrl).host,
        target_link_uri: urls.launchUrl,
        claims: ['iss', 'sub', 'name', 'given_name', 'family_name'],
        messages: [
          { type: 'LtiResourceLinkRequest' },
          { type: 'LtiDeepLinkingRequest', target_link_uri: urls.launchUrl },
        ],
        description: 'Team chat for the course',
      },
    }),
  }).catch((err: unknown) => {
    if (err instanceof PlatformRequestError) throw new LaunchRefusal(502, err.message);
    throw err;
  });
  const reg = registrationAnswer.safeParse(registered.json);
  if (registered.status < 200 || registered.status >= 300 || !reg.success)
    throw new LaunchRefusal(502, `The platform refused the registration (status ${registered.status}).`);
  const deploymentId = reg.data[TOOL_CONFIGURATION]?.deployment_id;
  const family = cfg[PLATFORM_CONFIGURATION]?.product_family_code;
  try {
    const [platform] = await ctx.db
      .insert(ltiPlatforms)
      .values({
        id,
        institutionId: link.institutionId,
        registeredBy: link.createdBy,
        name: family ? family.charAt(0).toUpperCase() + family.slice(1) : new URL(cfg.issuer).host,
        issuer: cfg.issuer,
        clientId: reg.data.client_id,
        authLoginUrl: cfg.authorization_endpoint,
        tokenUrl: cfg.token_endpoint,
        keySetUrl: cfg.jwks_uri,
        deploymentIds: deploymentId ? [deploymentId] : [],
      })
      .returning();
    if (!platform) throw new Error('platform insert returned nothing');
    return {
      platform,
      origins: [...new Set([new URL(cfg.issuer).origin, new URL(cfg.authorization_endpoint).origin])],
    };
  } catch (err) {
    if (isUniqueViolation(err))
      throw new LaunchRefusal(400, 'This platform (issuer and client id) is already registered in Lantern.');
    throw err;
  }
}
