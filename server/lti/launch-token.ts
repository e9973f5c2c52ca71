// Validates a platform's launch id_token completely, and says in one sentence why one is refused:
// signature by key id against the platform's key set (asymmetric algorithms only, so neither `none` nor
// HS256 keyed with the public key passes), issuer, audience and authorized party, expiry and issue time,
// the nonce of this login, a registered deployment, message type, version 1.3.0 and the roles claim.
import { errors, jwtVerify } from 'jose';
import { z } from 'zod';
import { CLAIM, MESSAGE_TYPES } from './claims.ts';
import type { PlatformKeys } from './platform-keys.ts';
import { PlatformRequestError } from './platform-requests.ts';

/** A launch the tool refuses: the status and the sentence the person reads. */
export class LaunchRefusal extends Error {
  override name = 'LaunchRefusal';
  constructor(
    readonly statusCode: 400 | 401 | 403 | 502,
    message: string,
  ) {
    super(message);
  }
}

export const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384'];
/** Clock difference tolerated between platform and tool. */
const CLOCK_TOLERANCE_S = 60;
/** An id_token issued longer ago than this is refused even before its expiry. */
const MAX_TOKEN_AGE_S = 600;

const text = (max: number) => z.string().min(1).max(max);
const launchClaims = z.object({
  sub: text(255),
  name: z.string().max(255).optional(),
  given_name: z.string().max(255).optional(),
  family_name: z.string().max(255).optional(),
  email: z.string().max(320).optional(),
  [CLAIM.roles]: z.array(z.string().max(255)).max(100),
  [CLAIM.context]: z
    .object({ id: text(255), label: z.string().max(255).optional(), title: z.string().max(255).optional() })
    .optional(),
  [CLAIM.resourceLink]: z.object({ id: text(255), title: z.string().max(255).optional() }).optional(),
  [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  [CLAIM.deepLinkingSettings]: z
    .object({ deep_link_return_url: z.string().url().max(2048), data: z.string().max(4096).optional() })
    .optional(),
  [CLAIM.namesRoleService]: z.object({ context_memberships_url: z.string().url().max(2048) }).optional(),
});

export interface VerifiedLaunch {
  messageType: (typeof MESSAGE_TYPES)[number];
  deploymentId: string;
  subject: string;
  name: string;
  roles: string[];
  context: { id: string; title: string } | null;
  resourceLink: { id: string; title: string } | null;
  custom: Record<string, unknown>;
  deepLinking: { returnUrl: string; data: string | null } | null;
  membershipsUrl: string | null;
}

export interface LaunchPlatform {
  id: string;
  issuer: string;
  clientId: string;
  keySetUrl: string;
  deploymentIds: string[];
}

function refusalOf(err: unknown): LaunchRefusal {
  if (err instanceof LaunchRefusal) return err;
  if (err instanceof PlatformRequestError) return new LaunchRefusal(502, err.message);
  if (err instanceof errors.JWTExpired)
    return new LaunchRefusal(401, 'The launch has expired. Open it again from your course.');
  if (err instanceof errors.JWTClaimValidationFailed) {
    const claim = err.claim;
    if (claim === 'iss')
      return new LaunchRefusal(401, 'The launch was issued by another platform than the one registered.');
    if (claim === 'aud')
      return new LaunchRefusal(
        401,
        'The launch was meant for another tool (its audience is not this client id).',
      );
    if (claim === 'iat')
      return new LaunchRefusal(401, 'The launch was issued too long ago, or in the future.');
    if (claim === 'nbf') return new LaunchRefusal(401, 'The launch is not valid yet.');
    return new LaunchRefusal(401, `The launch lacks a valid "${claim}" claim.`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed)
    return new LaunchRefusal(
      401,
      'The launch is not signed with an algorithm the tool accepts (a platform key is required).',
    );
  if (err instanceof errors.JWKSNoMatchingKey)
    return new LaunchRefusal(401, "The launch is signed with a key the platform's key set does not contain.");
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new LaunchRefusal(401, 'The launch signature does not match the platform key.');
  if (err instanceof errors.JOSEError)
    return new LaunchRefusal(400, 'The launch token is not a valid signed token.');
  throw err;
}

/** The launch, verified; a LaunchRefusal saying why otherwise. */
export async function verifyLaunchToken(
  keys: PlatformKeys,
  platform: LaunchPlatform,
  token: string,
  expectedNonce: string,
): Promise<VerifiedLaunch> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, keys.keyFor(platform), {
      algorithms: ALGORITHMS,
      issuer: platform.issuer,
      audience: platform.clientId,
      requiredClaims: ['iat', 'exp', 'nonce', 'sub'],
      maxTokenAge: MAX_TOKEN_AGE_S,
      clockTolerance: CLOCK_TOLERANCE_S,
    }));
  } catch (err) {
    throw refusalOf(err);
  }
  const aud = payload.aud;
  if (Array.isArray(aud) && aud.length > 1 && payload.azp === undefined)
    throw new LaunchRefusal(401, 'The launch names several audiences but no authorized party (azp).');
  if (payload.azp !== undefined && payload.azp !== platform.clientId)
    throw new LaunchRefusal(401, 'The launch was authorized for another tool (azp is not this client id).');
  if (payload.nonce !== expectedNonce)
    throw new LaunchRefusal(401, 'The launch does not carry the nonce of this sign-in.');

  const deploymentId = payload[CLAIM.deploymentId];
  if (typeof deploymentId !== 'string' || !platform.deploymentIds.includes(deploymentId))
    throw new LaunchRefusal(403, 'This deployment of the tool is not registered in Lantern.');
  const messageType = payload[CLAIM.messageType];
  if (!MESSAGE_TYPES.includes(messageType as (typeof MESSAGE_TYPES)[number]))
    throw new LaunchRefusal(
      400,
      `Lantern does not handle this kind of launch (${String(messageType).slice(0, 60)}).`,
    );
  if (payload[CLAIM.version] !== '1.3.0')
    throw new LaunchRefusal(400, 'The launch is not LTI version 1.3.0.');

  const parsed = launchClaims.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? 'a claim';
    throw new LaunchRefusal(400, `The launch has a malformed claim: ${where.slice(0, 120)}.`);
  }
  const c = parsed.data;
  const type = messageType as VerifiedLaunch['messageType'];
  const resourceLink = c[CLAIM.resourceLink];
  if (type === 'LtiResourceLinkRequest' && !resourceLink)
    throw new LaunchRefusal(400, 'The launch names no resource link.');
  const settings = c[CLAIM.deepLinkingSettings];
  if (type === 'LtiDeepLinkingRequest' && !settings)
    throw new LaunchRefusal(400, 'The deep-linking request has no return address.');
  const context = c[CLAIM.context];
  const name =
    c.name?.trim() || [c.given_name, c.family_name].filter(Boolean).join(' ').trim() || 'Course participant';
  return {
    messageType: type,
    deploymentId,
    subject: c.sub,
    name,
    roles: c[CLAIM.roles],
    context: context ? { id: context.id, title: context.title || context.label || 'Course' } : null,
    resourceLink: resourceLink ? { id: resourceLink.id, title: resourceLink.title || 'Course chat' } : null,
    custom: c[CLAIM.custom] ?? {},
    deepLinking:
      type === 'LtiDeepLinkingRequest' && settings
        ? { returnUrl: settings.deep_link_return_url, data: settings.data ?? null }
        : null,
    membershipsUrl: c[CLAIM.namesRoleService]?.context_memberships_url ?? null,
  };
}
