// OIDC login initiation (the platform's first call, GET or POST): checks the parameters against the
// registered platform, keeps a fresh state and nonce server-side (single use, short-lived: no cookie is
// needed, so a course page that blocks third-party cookies still launches), and sends the browser to the
// platform's authorization endpoint.
import { randomBytes } from 'node:crypto';
import { lt } from 'drizzle-orm';
import { z } from 'zod';
import { hashToken } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { ltiStates } from '../db/schema.ts';
import { LaunchRefusal } from './launch-token.ts';
import { getPlatform, toolUrls } from './platforms.ts';

/** How long a login may take between initiation and launch. */
export const STATE_TTL_MS = 10 * 60_000;

const param = (max: number) => z.string().max(max, { abort: true });
export const loginParams = z.object({
  iss: param(2048).min(1),
  login_hint: param(2048).min(1),
  target_link_uri: param(2048).min(1),
  lti_message_hint: param(4096).optional(),
  client_id: param(255).optional(),
  lti_deployment_id: param(255).optional(),
  lti_storage_target: param(64).optional(),
});
export type LoginParams = z.infer<typeof loginParams>;

export interface LoginStart {
  /** The platform's authorization request. */
  redirect: string;
  state: string;
  platformOrigins: string[];
  /** Where the platform offers postMessage storage: the page first puts the state there. */
  storage: { target: string; key: string; origin: string } | null;
}

/** A frame name the LTI storage spec allows: `_parent` or a plain name (it ends up in a page attribute). */
const STORAGE_TARGET = /^[A-Za-z0-9_.-]{1,64}$/;

export async function startLogin(
  ctx: { db: Db; config: Config },
  platformId: string,
  raw: unknown,
): Promise<LoginStart> {
  const parsed = loginParams.safeParse(raw);
  if (!parsed.success) {
    const missing = parsed.error.issues[0]?.path.join('.') ?? 'a parameter';
    throw new LaunchRefusal(400, `The login request lacks a valid "${missing}" parameter.`);
  }
  const p = parsed.data;
  const platform = /^[0-9a-f-]{36}$/.test(platformId) ? await getPlatform(ctx.db, platformId) : null;
  if (!platform) throw new LaunchRefusal(400, 'This platform is not registered in Lantern.');
  if (p.iss !== platform.issuer)
    throw new LaunchRefusal(
      400,
      'The login names another issuer than the platform registered at this address.',
    );
  if (p.client_id !== undefined && p.client_id !== platform.clientId)
    throw new LaunchRefusal(400, 'The login names another client id than the one registered.');
  if (p.lti_deployment_id !== undefined && !platform.deploymentIds.includes(p.lti_deployment_id))
    throw new LaunchRefusal(403, 'This deployment of the tool is not registered in Lantern.');
  const urls = toolUrls(ctx.config);
  // The tool launches only itself: a target elsewhere would make this an open redirect.
  if (
    !URL.canParse(p.target_link_uri) ||
    new URL(p.target_link_uri).origin !== new URL(urls.launchUrl).origin
  )
    throw new LaunchRefusal(400, 'The launch target is not an address of this Lantern server.');

  const state = randomBytes(32).toString('base64url');
  const nonce = randomBytes(32).toString('base64url');
  const storageTarget =
    p.lti_storage_target !== undefined && STORAGE_TARGET.test(p.lti_storage_target)
      ? p.lti_storage_target
      : null;
  const storageKey = storageTarget ? `lantern_state_${randomBytes(9).toString('base64url')}` : null;
  // Expired states of every platform go as new ones come (no sweeper needed).
  await ctx.db.delete(ltiStates).where(lt(ltiStates.expiresAt, new Date()));
  await ctx.db.insert(ltiStates).values({
    stateHash: hashToken(state),
    platformId: platform.id,
    nonce,
    storageTarget,
    storageKey,
    expiresAt: new Date(Date.now() + STATE_TTL_MS),
  });

  const auth = new URL(platform.authLoginUrl);
  const query: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: urls.launchUrl,
    login_hint: p.login_hint,
    state,
    nonce,
  };
  if (p.lti_message_hint !== undefined) query.lti_message_hint = p.lti_message_hint;
  if (p.lti_deployment_id !== undefined) query.lti_deployment_id = p.lti_deployment_id;
  for (const [k, v] of Object.entries(query)) auth.searchParams.set(k, v);
  return {
    redirect: auth.toString(),
    state,
    platformOrigins: [...new Set([new URL(platform.issuer).origin, auth.origin])],
    storage:
      storageTarget && storageKey ? { target: storageTarget, key: storageKey, origin: auth.origin } : null,
  };
}
