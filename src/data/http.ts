// REST client of the tab and the worker: bearer token, JSON bodies, server errors → ApiError.
import type { ErrorBody } from '../../schemas/protocol.ts';
import { mayCarryToken } from './own-origin.ts';

/** A failed API call; message is the server's message, or 'An error occurred' (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message || 'An error occurred');
    this.name = 'ApiError';
    this.status = status;
  }
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
  /** Spec §8: the session is gone (see isSessionInvalid) → the caller signs the user out. */
  onSessionInvalid?: () => void;
}

export interface Http {
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
  ): Promise<T> {
    const target = options.baseUrl + path;
    // A path is ours by construction, but the token is checked against the origin all the same.
    const token = mayCarryToken(target, options.baseUrl) ? await options.getToken() : null;
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (raw) headers['content-type'] = raw.contentType;
    else if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await doFetch(target, {
      method,
      headers,
      body: raw ? raw.body : body === undefined ? undefined : JSON.stringify(body),
      // A document on a slow link takes longer than a JSON call; only a dead connection should fail it.
      signal: AbortSignal.timeout((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) * (raw ? 10 : 1)),
    });
    const text = await res.text();
    const parsed: unknown = text ? safeJson(text) : undefined;
    if (!res.ok) {
      const message = (parsed as Partial<ErrorBody> | undefined)?.message ?? '';
      const invalid = isSessionInvalid(res.status, message);
      if (invalid && token && !path.startsWith('/api/auth/')) options.onSessionInvalid?.();
      throw new ApiError(res.status, message);
    }
    return parsed as T;
  }
  async function getBlob(path: string): Promise<Blob> {
    const target = options.baseUrl + path;
    const token = mayCarryToken(target, options.baseUrl) ? await options.getToken() : null;
    // No timeout: a large file on a slow link may take long; only its headers decide success.
    const res = await doFetch(target, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (!res.ok) {
      if (isSessionInvalid(res.status, '') && token) options.onSessionInvalid?.();
      throw new ApiError(res.status, res.statusText || String(res.status));
    }
    return await res.blob();
  }
  return {
    getBlob,
    postBlob: (path, body, contentType) => request('POST', path, undefined, { body, contentType }),
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body ?? {}),
    put: (path, body) => request('PUT', path, body ?? {}),
    del: (path, body) => request('DELETE', path, body),
  };
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
