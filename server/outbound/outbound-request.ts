// The one path by which the server makes a request on a workspace's behalf (URL knowledge sources, HTTP MCP
// connections): every hop's address is checked by the address guard before connecting (a literal IP by
// its value, a host name on every address it resolves to, the socket pinned to those addresses), on a
// fresh connection each time (a pooled socket would skip the check). A fetch-shaped wrapper serves the MCP
// SDK's transports and follows a redirect only within the same origin, each hop checked again.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { createSecureContext } from 'node:tls';
import { guardedLookup, RefusedAddress, type Resolver, urlRefusal } from './address-guard.ts';

export interface OutboundOptions {
  /** Loopback and private networks too (the operator's KNOWLEDGE_URL_ALLOW_PRIVATE, MCP_HTTP_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Name resolution; the system's by default (tests give a fixed table). */
  resolve?: Resolver;
  /** Certificate authorities to trust instead of the default ones (an operator's PEM file). */
  ca?: string[];
  /**
   * A keep-alive agent whose every new connection is made through the address guard (guardedAgent): a
   * reused socket goes to an address that was checked when it was opened. Without it, a fresh connection.
   */
  agent?: http.Agent;
}

/**
 * A pooling agent for one kind of destination (Web Push services), its connections guarded like any other.
 * Extra authorities go into one secure context made here, not into each request (where every request
 * would carry, and the agent would compare, the whole list).
 */
export function guardedAgent(options: Pick<OutboundOptions, 'allowPrivate' | 'resolve' | 'ca'>): https.Agent {
  return new https.Agent({
    keepAlive: true,
    maxSockets: 16,
    lookup: guardedLookup(options.allowPrivate, options.resolve),
    ...(options.ca ? { secureContext: createSecureContext({ ca: options.ca }) } : {}),
  });
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  signal?: AbortSignal;
}

/** One request, no redirect followed; RefusedAddress when the address may not be reached. */
export function outboundRequest(
  url: URL,
  init: OutboundInit,
  options: OutboundOptions,
): Promise<IncomingMessage> {
  const refusal = urlRefusal(url, options.allowPrivate);
  if (refusal) return Promise.reject(new RefusedAddress(refusal));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: init.method ?? 'GET',
      headers: init.headers ?? {},
      agent: options.agent ?? false,
      ...(options.ca ? { ca: options.ca } : {}),
      lookup: guardedLookup(options.allowPrivate, options.resolve),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end(init.body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Same-origin redirects followed by the fetch wrapper before it gives up. */
const MAX_REDIRECTS = 5;

type FetchInput = string | URL | Request;

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(init?.headers).entries());
}

async function bodyOf(init: RequestInit | undefined): Promise<Buffer | string | undefined> {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  // URLSearchParams, Blob, ArrayBuffer, typed arrays: whatever a Response can read, as bytes.
  return Buffer.from(await new Response(body).arrayBuffer());
}

function toResponse(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i];
    const value = res.rawHeaders[i + 1];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  const status = res.statusCode ?? 0;
  const empty = NULL_BODY.has(status) || method === 'HEAD';
  if (empty) res.resume();
  const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: res.statusMessage ?? '', headers });
}

/**
 * A `fetch` whose every request goes through outboundRequest. Redirects: 'manual' returns them, 'error'
 * fails on them, 'follow' follows them within the origin only (another host never gets the request's
 * headers, which may carry a connection's secrets) and returns any other redirect as it is.
 */
export function outboundFetch(options: OutboundOptions) {
  return async (input: FetchInput, init?: RequestInit): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : input);
    let method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const headers = headersOf(init);
    let body = await bodyOf(init);
    const signal = init?.signal ?? undefined;
    for (let hop = 0; ; hop++) {
      const res = await outboundRequest(
        url,
        { method, headers, body, ...(signal ? { signal } : {}) },
        options,
      );
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (!REDIRECTS.has(status) || !location || init?.redirect === 'manual') return toResponse(res, method);
      if (init?.redirect === 'error') {
        res.destroy();
        throw new TypeError(`The server redirected (${status}) where no redirect was expected`);
      }
      const target = new URL(location, url);
      if (target.origin !== url.origin || hop >= MAX_REDIRECTS) return toResponse(res, method);
      res.destroy();
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      url = target;
    }
  };
}
