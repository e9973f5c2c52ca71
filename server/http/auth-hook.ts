// The REST auth check: every /api/* route except /api/auth/* needs `Authorization: Bearer <token>` naming a
// live session. createApp installs `authHook` once on the root instance; handlers read the caller with
// `getAuth(request)`, which every route module (users, institutions, channels, messages) shares.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionLifetime } from '../auth/session-lifetime.ts';
import { type AuthSession, findSession } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { unauthorized } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session, set by the auth hook on protected routes; null on open ones. */
    auth: AuthSession | null;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
/**
 * Paths that need no session: sign-in itself (an LTI launch's exchange too), the run-time configuration the
 * sign-in page needs, the served build (/api/version), the API's own description (/api/openapi.json, /api/docs), and everything outside the
 * API. The OpenAPI document marks the same ones.
 */
export const isOpenPath = (url: string) =>
  !url.startsWith('/api/') ||
  url.startsWith('/api/auth/') ||
  url === '/api/lti/launch' ||
  url === '/api/client-config' ||
  url === '/api/version' ||
  url === '/api/openapi.json' ||
  url === '/api/docs' ||
  url.startsWith('/api/docs/');
/** A file upload carries its own signature in the address (server/http/files.ts checks it). */
export const isSignedUpload = (method: string, url: string) =>
  method === 'PUT' && url.startsWith('/api/files/upload/');

/**
 * Resolves the session before the body is parsed, so a caller without a token gets 401 rather than a
 * validation error about a body it should not have been sending.
 */
export function authHook(app: FastifyInstance, db: Db, lifetime: SessionLifetime): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (isOpenPath(request.url) || isSignedUpload(request.method, request.url)) return;
    const session = await findSession(db, lifetime, bearerToken(request.headers.authorization));
    if (!session) throw unauthorized();
    request.auth = session;
  });
}

/** The caller's session; 401 if the route was reached without one (it cannot be, behind authHook). */
export function getAuth(request: FastifyRequest): AuthSession {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
