// LTI 1.3 routes. The platform-facing pages: the tool's key set (/lti/keys), login initiation
// (/lti/login/:platformId, GET or POST) and the launch (POST /lti/launch, the platform's form post),
// which answer a refusal with a page saying why. The API: the launch page's exchange (open, like sign-in),
// deep linking, and the platforms a workspace admin registers. Only the launch pages may be framed, and
// only by the platform of that launch (decision 0027).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { id, ltiDeepLinkBody, ltiLaunchBody, ltiPlatformBody } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { answerDeepLink } from '../lti/deep-linking.ts';
import { createRegistrationLink, registerDynamically } from '../lti/dynamic-registration.ts';
import { completeLaunch } from '../lti/launch.ts';
import { exchangeLaunch, launchPageOrigins } from '../lti/launch-exchange.ts';
import { LaunchRefusal } from '../lti/launch-token.ts';
import { startLogin } from '../lti/login.ts';
import type { LtiContext } from '../lti/lti-context.ts';
import { PlatformKeys } from '../lti/platform-keys.ts';
import { listPlatforms, registerPlatform, removePlatform, toolUrls, toPlatform } from '../lti/platforms.ts';
import { toolKey } from '../lti/tool-key.ts';
import { getAuth } from './auth-hook.ts';
import { signinDevice } from './signin-device.ts';

const workspaceParams = z.object({ id });
const platformParams = z.object({ id, platformId: id });
/** A platform's form post (id_token and state, or a login's parameters) is small. */
const FORM_LIMIT = 96 * 1024;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * The login page's script (LTI Client Side postMessages): put the state into the platform's storage frame,
 * then go on to the platform's authorization endpoint; without an answer in 2 s it goes on anyway (the
 * exchange will then refuse, with a sentence).
 */
const STORAGE_LOGIN_SCRIPT = `(function () {
  var d = document.currentScript.dataset;
  var frame = d.target === '_parent' ? window.parent : window.parent.frames[d.target];
  var id = Math.random().toString(36).slice(2);
  var done = false;
  function go() { if (!done) { done = true; window.location.replace(d.next); } }
  window.addEventListener('message', function (e) {
    if (e.origin === d.origin && e.data && e.data.subject === 'lti.put_data.response' && e.data.message_id === id) go();
  });
  try { frame.postMessage({ subject: 'lti.put_data', message_id: id, key: d.key, value: d.value }, d.origin); } catch (err) { go(); }
  setTimeout(go, 2000);
})();
`;

/** A small page of the tool (a refusal, a registration), readable framed or not, light or dark. */
function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)} - Lantern</title><style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f4f4f4;color:#18181b}` +
    `main{max-width:32rem;padding:2rem;margin:1rem;background:#fff;border:1px solid #e4e4e7;border-radius:.75rem}h1{font-size:1.125rem;margin:0 0 .5rem}` +
    `@media (prefers-color-scheme:dark){body{background:#18181b;color:#ececf0}main{background:#1e1e22;border-color:#2e2e34}}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/** The page a refused login, launch or registration shows. */
function refusalPage(reply: FastifyReply, err: LaunchRefusal) {
  return reply
    .status(err.statusCode)
    .type('text/html; charset=utf-8')
    .send(
      page(
        'Launch refused',
        `<h1>Lantern could not open this activity</h1><p id="reason">${escapeHtml(err.message)}</p>`,
      ),
    );
}

/** Rewrites this answer's CSP so that only these origins may frame it (and receive its forms). */
function allowFraming(reply: FastifyReply, frame: string[], form: string[] = []) {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp !== 'string' || frame.length === 0) return;
  let next = csp.replace(/frame-ancestors [^;]*/, `frame-ancestors ${frame.join(' ')}`);
  if (form.length > 0) next = next.replace(/form-action [^;]*/, `form-action 'self' ${form.join(' ')}`);
  reply.header('content-security-policy', next);
  reply.removeHeader('x-frame-options');
}

export function registerLtiRoutes(app: FastifyInstance, ctx: AppContext): void {
  const lti: LtiContext = { ...ctx, keys: new PlatformKeys(ctx.config) };

  // The launch page (/lti/launch?ltik=…, the client's screen) may be framed by its own platform only.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || !request.url.startsWith('/lti/launch?')) return payload;
    const ltik = new URLSearchParams(request.url.slice('/lti/launch?'.length)).get('ltik');
    if (!ltik || ltik.length > 200) return payload;
    const origins = await launchPageOrigins(ctx.db, ltik);
    if (origins) allowFraming(reply, origins.frame, origins.form);
    return payload;
  });

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.setErrorHandler((err, _request, reply) => {
      if (err instanceof LaunchRefusal) return refusalPage(reply, err);
      const status = (err as { statusCode?: number }).statusCode ?? 500;
      // A malformed or oversized form is the caller's fault; anything else is ours.
      if (status < 500)
        return refusalPage(reply, new LaunchRefusal(400, 'The platform sent a request Lantern cannot read.'));
      ctx.log.error({ err }, 'LTI request failed');
      return refusalPage(
        reply,
        new LaunchRefusal(502, 'Something went wrong while opening the activity. Please try again.'),
      );
    });

    scope.get('/lti/keys', async (_request, reply) => {
      const key = await toolKey(ctx.secrets);
      return reply.header('cache-control', 'public, max-age=300').send({ keys: [key.publicJwk] });
    });

    const login = async (platformId: string, params: unknown, reply: FastifyReply) => {
      const start = await startLogin(ctx, platformId, params);
      if (!start.storage) return reply.redirect(start.redirect, 302);
      // The platform offers postMessage storage: this page puts the state there, then goes on to the platform.
      allowFraming(reply, start.platformOrigins);
      const data = {
        target: start.storage.target,
        origin: start.storage.origin,
        key: start.storage.key,
        value: start.state,
        next: start.redirect,
      };
      const attributes = Object.entries(data)
        .map(([k, v]) => `data-${k}="${escapeHtml(v)}"`)
        .join(' ');
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Signing in',
            `<p>Signing you in…</p><script src="/lti/storage-login.js" ${attributes}></script>`,
          ),
        );
    };
    scope.get<{ Params: { platformId: string } }>('/lti/login/:platformId', (request, reply) =>
      login(request.params.platformId, request.query, reply),
    );
    scope.post<{ Params: { platformId: string } }>('/lti/login/:platformId', (request, reply) =>
      login(request.params.platformId, request.body, reply),
    );

    // Dynamic registration: the platform opens this in a frame or window and waits for the close message.
    scope.get<{ Params: { code: string } }>('/lti/register/:code', async (request, reply) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const configUrl =
        typeof query.openid_configuration === 'string' && URL.canParse(query.openid_configuration)
          ? [new URL(query.openid_configuration).origin]
          : [];
      try {
        const { platform, origins } = await registerDynamically(ctx, request.params.code, query);
        allowFraming(reply, [...new Set([...origins, ...configUrl])]);
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page(
              'Lantern is registered',
              `<h1>Lantern is registered</h1><p id="reason">${escapeHtml(platform.name)} can now open Lantern from its courses. This window closes by itself.</p><script src="/lti/registration-done.js"></script>`,
            ),
          );
      } catch (err) {
        allowFraming(reply, configUrl);
        throw err;
      }
    });
    scope.get('/lti/storage-login.js', async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').send(STORAGE_LOGIN_SCRIPT),
    );
    scope.get('/lti/registration-done.js', async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .send("(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');\n"),
    );

    scope.post('/lti/launch', async (request, reply) => {
      const { ltik, storage } = await completeLaunch(lti, (request.body ?? {}) as Record<string, unknown>);
      const target = new URLSearchParams({ ltik });
      if (storage) {
        target.set('lti_storage_target', storage.target);
        target.set('lti_storage_origin', storage.origin);
        target.set('lti_storage_key', storage.key);
      }
      return reply.redirect(`/lti/launch?${target}`, 303);
    });
  });

  app.post('/api/lti/launch', async (request) => {
    const { ltik, state } = ltiLaunchBody.parse(request.body);
    return exchangeLaunch(ctx.db, ltik, state, signinDevice(request));
  });

  app.post('/api/lti/deep-link', async (request) => {
    const { deepLinkToken, channelId } = ltiDeepLinkBody.parse(request.body);
    return answerDeepLink(ctx, getAuth(request).userId, deepLinkToken, channelId);
  });

  app.get('/api/institutions/:id/lti-platforms', async (request) => {
    const { id: institutionId } = workspaceParams.parse(request.params);
    const rows = await listPlatforms(ctx.db, getAuth(request).userId, institutionId);
    const urls = toolUrls(ctx.config);
    return {
      platforms: rows.map((row) => toPlatform(row, ctx.config)),
      tool: { launchUrl: urls.launchUrl, keySetUrl: urls.keySetUrl, loginUrlPattern: urls.loginUrlPattern },
    };
  });

  app.post('/api/institutions/:id/lti-platforms', async (request, reply) => {
    const { id: institutionId } = workspaceParams.parse(request.params);
    const body = ltiPlatformBody.parse(request.body);
    const row = await registerPlatform(ctx, getAuth(request).userId, institutionId, body);
    return reply.status(201).send(toPlatform(row, ctx.config));
  });

  app.post('/api/institutions/:id/lti-registration-links', async (request, reply) => {
    const { id: institutionId } = workspaceParams.parse(request.params);
    return reply.status(201).send(await createRegistrationLink(ctx, getAuth(request).userId, institutionId));
  });

  app.delete('/api/institutions/:id/lti-platforms/:platformId', async (request) => {
    const { id: institutionId, platformId } = platformParams.parse(request.params);
    await removePlatform(ctx.db, getAuth(request).userId, institutionId, platformId);
    lti.keys.forget(platformId);
    return { ok: true };
  });
}
