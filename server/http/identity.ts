// Sign-in through identity providers (spec §7 Auth, External identity sign-in): the providers offered, the
// popup's start (a redirect to the provider) and callback (a tiny page that reports to the main window),
// POST /api/auth/signin/provider, its e-mail confirmation, and the caller's linked sign-in methods.
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type IdentityProvidersResponse,
  type ProviderSigninResponse,
  providerConfirmBody,
  providerId,
  providerSigninBody,
  providerStartQuery,
  type SigninMethodsResponse,
  type SigninResponse,
  signinMethodParams,
} from '../../schemas/protocol/index.ts';
import { OTP_TTL_MS, requestSigninCode, verifySigninCode } from '../auth/otp.ts';
import type { AppContext } from '../context.ts';
import { identities } from '../db/schema.ts';
import { HttpError, notFound } from '../errors.ts';
import type { IdClaims } from '../identity/id-token.ts';
import {
  linkIdentity,
  type ProviderPolicy,
  requireNewAccountAllowed,
  resolveIdentity,
} from '../identity/identity-accounts.ts';
import { ProviderDirectory } from '../identity/provider-directory.ts';
import {
  beginLogin,
  claimLogin,
  dropLogin,
  holdPending,
  LOGIN_EXPIRED,
  takePending,
} from '../identity/provider-logins.ts';
import { createSession, getUser, toUser, type UserRow } from '../services/users.ts';
import { getAuth } from './auth-hook.ts';
import { signinDevice } from './signin-device.ts';

const CALLBACK_PATH = '/api/auth/provider/callback';
const CALLBACK_FIELDS = ['state', 'code', 'error', 'error_description'] as const;

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The popup's last page, on Lantern's own origin: it hands the provider's answer to the main window over a
 * BroadcastChannel (public/identity-callback.js) and closes. Strict opener policy: nothing the provider
 * left in this window's history can reach the app, and the app never needs window.opener.
 */
function sendCallbackPage(reply: FastifyReply, fields: Record<string, unknown>): FastifyReply {
  const result: Record<string, string> = {};
  for (const key of CALLBACK_FIELDS) {
    const value = fields[key];
    if (typeof value === 'string' && value.length <= 4096) result[key] = value;
  }
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer">
<meta name="lantern-signin-result" content="${escapeAttribute(JSON.stringify(result))}">
<title>Signing in… - Lantern</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font:14px/1.5 system-ui,sans-serif;color:#52525b;background:#fafafa}@media (prefers-color-scheme:dark){body{color:#a1a1aa;background:#0a0a0b}}</style>
</head><body><p id="status">Signing you in… You can close this window.</p>
<script type="module" src="/identity-callback.js"></script></body></html>`;
  return reply
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

const policyOf = (p: {
  id: string;
  name: string;
  allowedDomains: string[];
  allowSignup: boolean;
  trustedDomains: string[];
}): ProviderPolicy => ({
  id: p.id,
  name: p.name,
  allowedDomains: p.allowedDomains,
  allowSignup: p.allowSignup,
  trustedDomains: p.trustedDomains,
});

export function registerIdentityRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  opts: { mailToFiles: boolean },
): void {
  const directory = new ProviderDirectory(ctx.config);
  const otpCtx = { ...ctx, mailToFiles: opts.mailToFiles };
  const firebase = directory.firebase;
  const firebasePolicy: ProviderPolicy | null = firebase
    ? policyOf({ ...firebase.config, id: 'firebase' })
    : null;

  app.get('/api/auth/providers', async (): Promise<IdentityProvidersResponse> => {
    const fb = ctx.config.FIREBASE_CONFIG;
    return {
      providers: [...directory.providers.values()].map((p) => p.summary),
      firebase: fb
        ? {
            apiKey: fb.apiKey,
            authDomain: fb.authDomain,
            projectId: fb.projectId,
            name: fb.name,
            ...(fb.storageBucket ? { storageBucket: fb.storageBucket } : {}),
            ...(fb.messagingSenderId ? { messagingSenderId: fb.messagingSenderId } : {}),
            ...(fb.appId ? { appId: fb.appId } : {}),
            ...(fb.measurementId ? { measurementId: fb.measurementId } : {}),
            ...(fb.vapidKey ? { vapidKey: fb.vapidKey } : {}),
          }
        : null,
    };
  });

  // Opened in the popup: records the sign-in and sends the popup on to the provider. A failure still
  // ends on the callback page, so the main window hears about it instead of waiting.
  app.get('/api/auth/provider/:providerId/start', async (request, reply) => {
    const query = providerStartQuery.safeParse(request.query);
    const state = query.success ? query.data.state : undefined;
    const fail = (error: string, description: string) =>
      reply.redirect(
        `${CALLBACK_PATH}?${new URLSearchParams({ error, error_description: description, ...(state ? { state } : {}) })}`,
      );
    const id = providerId.safeParse((request.params as { providerId?: unknown }).providerId);
    const provider = id.success ? directory.get(id.data) : undefined;
    if (!provider || !query.success) return fail('invalid_request', 'This sign-in link is not valid.');
    try {
      const { nonce, codeChallenge } = await beginLogin(ctx.db, {
        providerId: provider.config.id,
        state: query.data.state,
        binding: query.data.binding,
        ttlSeconds: ctx.config.IDENTITY_LOGIN_TTL_SECONDS,
      });
      const target = await provider.authorizationUrl({ state: query.data.state, nonce, codeChallenge });
      return reply
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .redirect(target);
    } catch (err) {
      if (err instanceof HttpError) return fail('temporarily_unavailable', err.message);
      throw err;
    }
  });

  app.get(CALLBACK_PATH, async (request, reply) =>
    sendCallbackPage(reply, request.query as Record<string, unknown>),
  );
  // Apple answers with a form post (response_mode=form_post); the body is the same four fields.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post(CALLBACK_PATH, async (request, reply) =>
      sendCallbackPage(reply, (request.body ?? {}) as Record<string, unknown>),
    );
  });

  async function signedIn(user: UserRow, request: FastifyRequest): Promise<SigninResponse> {
    const { token } = await createSession(ctx.db, user.id, signinDevice(request));
    return { accessToken: token, user: toUser(user) };
  }

  app.post('/api/auth/signin/provider', async (request): Promise<ProviderSigninResponse> => {
    const body = providerSigninBody.parse(request.body);
    let claims: IdClaims;
    let policy: ProviderPolicy;
    let state: string | null = null;
    if (body.kind === 'firebase') {
      if (!firebase || !firebasePolicy) throw notFound('Firebase sign-in is not configured on this server');
      claims = await firebase.verify(body.idToken);
      policy = firebasePolicy;
    } else {
      const provider = directory.get(body.provider);
      if (!provider) throw notFound('This sign-in provider is not configured on this server');
      const login = await claimLogin(ctx.db, provider.config.id, body.state, body.secret);
      claims = await provider.exchange(body.code, login.codeVerifier, login.nonce);
      policy = policyOf(provider.config);
      state = login.state;
    }
    const resolution = await resolveIdentity(ctx.db, ctx.config, policy, claims);
    if (resolution.kind === 'user') {
      if (state) await dropLogin(ctx.db, state);
      return signedIn(resolution.user, request);
    }
    // The address must be proven first: a code goes to it, and the identity waits on the sign-in row.
    if (!state) {
      throw new HttpError(
        403,
        `Your ${policy.name} address must be confirmed first: sign in with your e-mail address once, then use ${policy.name}.`,
      );
    }
    await requestSigninCode(otpCtx, resolution.identity.email, request.ip, 'signin', {
      provider: policy.name,
    });
    await holdPending(ctx.db, state, resolution.identity, OTP_TTL_MS);
    return { confirmEmail: resolution.identity.email, state };
  });

  app.post('/api/auth/signin/provider/confirm', async (request): Promise<SigninResponse> => {
    const body = providerConfirmBody.parse(request.body);
    const login = await takePending(ctx.db, body.state, body.secret);
    const pending = login?.pending;
    const provider = login ? directory.get(login.providerId) : undefined;
    if (!login || !pending || !provider) throw new HttpError(400, LOGIN_EXPIRED);
    await verifySigninCode(otpCtx, pending.email, body.code, request.ip);
    await dropLogin(ctx.db, login.state);
    const policy = policyOf(provider.config);
    await requireNewAccountAllowed(ctx.db, ctx.config, policy, pending.email);
    const user = await linkIdentity(ctx.db, policy, pending, null);
    return signedIn(user, request);
  });

  // The e-mail code is always a sign-in method (every account's address was proven), so any provider
  // link may be removed: unlinking never leaves a person without a way in. Decision 0025.
  app.get('/api/users/signin-methods', async (request): Promise<SigninMethodsResponse> => {
    const { userId } = getAuth(request);
    const user = await getUser(ctx.db, userId);
    const rows = await ctx.db
      .select()
      .from(identities)
      .where(eq(identities.userId, userId))
      .orderBy(asc(identities.createdAt));
    return {
      email: user.email,
      data: rows.map((r) => ({
        id: r.id,
        providerId: r.providerId,
        providerName:
          r.providerId === 'firebase'
            ? (ctx.config.FIREBASE_CONFIG?.name ?? 'Firebase')
            : (directory.get(r.providerId)?.config.name ?? r.providerId),
        email: r.email,
        createdAt: r.createdAt.toISOString(),
        lastUsedAt: r.lastUsedAt.toISOString(),
      })),
    };
  });

  app.delete('/api/users/signin-methods/:identityId', async (request) => {
    const { userId } = getAuth(request);
    const { identityId } = signinMethodParams.parse(request.params);
    const removed = await ctx.db
      .delete(identities)
      .where(and(eq(identities.id, identityId), eq(identities.userId, userId)))
      .returning({ id: identities.id });
    // Someone else's link answers exactly like a missing one.
    if (removed.length === 0) throw notFound('This sign-in method is not linked to your account');
    return { ok: true as const };
  });
}
