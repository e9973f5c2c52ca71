// REST client of the tab and the worker: bearer token, the protocol version, JSON bodies, server errors →
// ApiError.
import { PROTOCOL_HEADER, SESSION_CLIENT_HEADER } from '../../schemas/protocol/headers.ts';
import type { ErrorBody } from '../../schemas/protocol/index.ts';
import type { RestRoute, RestRouteName, RouteResponse, restRoutes } from '../../schemas/protocol/routes.ts';
import { PROTOCOL_VERSION } from '../../schemas/protocol/version.ts';
import { ApiError, UnexpectedAnswerError } from './api-error.ts';
import { retriesFor, retryDelayMs } from './http-retry.ts';
import { mayCarryToken } from './own-origin.ts';

export { ApiError, UnexpectedAnswerError };

/** Routes that answer JSON (not a file's bytes). */
export type JsonRouteName = {
  [N in RestRouteName]: (typeof restRoutes)[N]['response'] extends string ? never : N;
}[RestRouteName];

export interface RouteRequest {
  /** Values of the route's `:name` segments (encoded here). */
  params?: Record<string, string>;
  query?: Record<string, string> | URLSearchParams;
  /** JSON body; POST and PUT send `{}` when there is none. */
  body?: unknown;
  /** Raw bytes (a document) with their content type, instead of a JSON body. */
  bytes?: { body: Blob; contentType: string };
  /**
   * The body carries a key (a genId, an opId) that the server applies once, so a write may be retried
   * like a read (spec §9; src/store/http-retry.ts). Other writes are never retried.
   */
  idempotent?: boolean;
}

/**
 * The route table with every answer's schema (and zod with them) loads with the first call, not with the
 * page: a reload paints its first rows from the store before any call is made.
 */
let routeModule: typeof import('../../schemas/protocol/routes.ts') | undefined;
/** Loaded once: after the first call every call takes the same path, with no module loading in between. */
async function routeTable() {
  routeModule ??= await import('../../schemas/protocol/routes.ts');
  return routeModule;
}

/** Generous on purpose: slow mobile links are the norm; only a dead connection should hit it. */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpOptions {
  /** Origin of the API, '' for same origin. */
  baseUrl: string;
  getToken: () => string | null | Promise<string | null>;
  fetch?: typeof fetch;
  /** A request that has not answered by then fails (a half-open connection must not hang a pull). */
  timeoutMs?: number;
  /**
   * Spec §8: the session is gone (see isSessionInvalid) → the caller signs the user out. Given the token
   * the server refused, so a caller whose session has changed since can tell a stale refusal.
   */
  onSessionInvalid?: (refusedToken: string) => void;
  /** The server no longer answers this client's protocol (426): the person should reload. */
  onOutdated?: () => void;
  /** This device's id (spec §3 sessionClientId), sent with every request that may open a session. */
  deviceId?: () => Promise<string | null>;
}

/** Requests that may open a session: sign-in of every kind and the learning-tool launch. */
const opensSession = (path: string) => path.startsWith('/api/auth/') || path.startsWith('/api/lti/');

export interface Http {
  /**
   * Calls a route of schemas/protocol/routes.ts and parses the answer with the route's schema (defaults
   * filled in, unknown fields dropped); an answer of another shape rejects with UnexpectedAnswerError.
   */
  call<N extends JsonRouteName>(name: N, request?: RouteRequest): Promise<RouteResponse<N>>;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  del<T>(path: string, body?: unknown): Promise<T>;
  /** Raw bytes (a file's content); a failure rejects with ApiError whose message is the status text. */
  getBlob(path: string): Promise<Blob>;
  /** POSTs raw bytes (a document) with their content type; the answer is JSON like any other call. */
  postBlob<T>(path: string, body: Blob, contentType: string): Promise<T>;
}

export function createHttp(options: HttpOptions): Http {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  async function request<T>(
    method: string,
    path: string,
    body?: unknown,
    raw?: { body: Blob; contentType: string },
    idempotent = false,
  ): Promise<T> {
    const target = options.baseUrl + path;
    // A path is ours by construction, but the token is checked against the origin all the same.
    const token = mayCarryToken(target, options.baseUrl) ? await options.getToken() : null;
    const headers = ownHeaders(target, options.baseUrl);
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.deviceId && opensSession(path) && PROTOCOL_HEADER in headers) {
      const device = await options.deviceId().catch(() => null);
      if (device) headers[SESSION_CLIENT_HEADER] = device;
    }
    if (raw) headers['content-type'] = raw.contentType;
    else if (body !== undefined) headers['content-type'] = 'application/json';
    const send = () =>
      doFetch(target, {
        method,
        headers,
        body: raw ? raw.body : body === undefined ? undefined : JSON.stringify(body),
        // A document on a slow link takes longer than a JSON call; only a dead connection should fail it.
        signal: AbortSignal.timeout((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) * (raw ? 10 : 1)),
      });
    const res = await withRetries(send, retriesFor(method, idempotent));
    const text = await res.text();
    const parsed: unknown = text ? safeJson(text) : undefined;
    if (!res.ok) {
      const answer = parsed as Partial<ErrorBody> | undefined;
      const message = answer?.message ?? '';
      if (res.status === OUTDATED_STATUS) options.onOutdated?.();
      const invalid = isSessionInvalid(res.status, message);
      if (invalid && token && !path.startsWith('/api/auth/')) options.onSessionInvalid?.(token);
      const fields = answer?.fields && typeof answer.fields === 'object' ? answer.fields : undefined;
      throw new ApiError(res.status, message, fields);
    }
    return parsed as T;
  }
  async function getBlob(path: string): Promise<Blob> {
    const target = options.baseUrl + path;
    const token = mayCarryToken(target, options.baseUrl) ? await options.getToken() : null;
    // No timeout: a large file on a slow link may take long; only its headers decide success.
    const headers = ownHeaders(target, options.baseUrl);
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await withRetries(() => doFetch(target, { headers }), retriesFor('GET', false));
    if (!res.ok) {
      if (res.status === OUTDATED_STATUS) options.onOutdated?.();
      if (isSessionInvalid(res.status, '') && token) options.onSessionInvalid?.(token);
      throw new ApiError(res.status, res.statusText || String(res.status));
    }
    return await res.blob();
  }
  async function call<N extends JsonRouteName>(name: N, req: RouteRequest = {}): Promise<RouteResponse<N>> {
    const { restRoutes, routePath } = await routeTable();
    const route: RestRoute = restRoutes[name];
    const schema = route.response;
    if (typeof schema === 'string')
      throw new Error(`${route.method} ${route.path} answers bytes: use getBlob`);
    const query = req.query ? new URLSearchParams(req.query).toString() : '';
    const path = routePath(route, req.params ?? {}) + (query ? `?${query}` : '');
    const body = req.body ?? (route.method === 'POST' || route.method === 'PUT' ? {} : undefined);
    const parsed = schema.safeParse(
      await request<unknown>(route.method, path, body, req.bytes, req.idempotent ?? false),
    );
    if (!parsed.success) {
      const error = new UnexpectedAnswerError(route);
      console.warn(`Unexpected answer to ${error.route}`, parsed.error.issues);
      throw error;
    }
    return parsed.data as RouteResponse<N>;
  }
  return {
    call,
    getBlob,
    postBlob: (path, body, contentType) => request('POST', path, undefined, { body, contentType }),
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body ?? {}),
    put: (path, body) => request('PUT', path, body ?? {}),
    del: (path, body) => request('DELETE', path, body),
  };
}

/** Sends, and sends again up to `retries` times while the answer is one worth retrying (spec §9). */
async function withRetries(send: () => Promise<Response>, retries: number): Promise<Response> {
  let res = await send();
  for (let attempt = 0; attempt < retries; attempt++) {
    const wait = retryDelayMs(res.status, res.headers.get('retry-after'));
    if (wait === null) break;
    // The refused answer's body is not read; release it before waiting.
    await res.body?.cancel().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, wait));
    res = await send();
  }
  return res;
}

/** The server's answer to a protocol it no longer speaks (server/http/protocol-version.ts). */
export const OUTDATED_STATUS = 426;

/**
 * Every call to our own server names the protocol this build speaks; another origin (a presigned store)
 * gets no custom header, which would cost a CORS preflight it does not allow.
 */
function ownHeaders(target: string, baseUrl: string): Record<string, string> {
  return mayCarryToken(target, baseUrl) ? { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } : {};
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Spec §8 signs out on 401, 403 or 'session invalid'. Our server answers 403 for "signed in, but your
 * role does not allow this" (issue 3 authorization), which must show its message, not sign the person
 * out; a missing or expired session is always 401 'session invalid'. So a 403 signs out only when it
 * says 'session invalid' (decision 0005).
 */
export function isSessionInvalid(status: number, message: string): boolean {
  return status === 401 || message === 'session invalid';
}
