// Firebase Cloud Messaging, HTTP v1 API (decision 0046): the service account signs a JWT (RS256), Google's
// OAuth 2.0 token endpoint exchanges it for an access token (kept until shortly before it expires), and
// each push is one POST to projects/{project}/messages:send. Both requests go through server/outbound/
// like every other request the server makes. FCM's answer decides what happens to the token: UNREGISTERED
// (or a token of another project) deletes it, 429/5xx asks to try again after Retry-After.
import { createSign } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Agent } from 'node:https';
import type { PushMessage } from '../../schemas/protocol/index.ts';
import type { Config } from '../config.ts';
import { guardedAgent, outboundRequest } from '../outbound/outbound-request.ts';
import type { FcmCredentials } from './fcm-credentials.ts';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** Google accepts assertions of at most an hour. */
const ASSERTION_LIFETIME_S = 3600;
/** An access token is replaced this long before Google says it expires (clock skew, a slow send). */
const TOKEN_MARGIN_MS = 5 * 60_000;
/** How far a Retry-After may push a retry: past this, the message is too old to be worth an alert. */
const MAX_RETRY_DELAY_MS = 60_000;

export type FcmOutcome =
  | { kind: 'sent' }
  /** The token will never work again: delete it. */
  | { kind: 'gone' }
  | { kind: 'failed'; reason: string }
  | { kind: 'retry'; afterMs: number };

type FcmConfig = Pick<Config, 'FCM_TOKEN_URL' | 'FCM_API_URL' | 'PUSH_ALLOW_PRIVATE' | 'PUSH_TIMEOUT_MS'>;
type Outbound = (
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<IncomingMessage>;

/**
 * Keep-alive agents for Google's https endpoints (a TLS handshake per push would cost more than the push,
 * decision 0032), their connections made through the address guard; a plain-http URL (the tests' stand-in)
 * gets a fresh connection.
 */
const agents = new Map<boolean, Agent>();
function agentFor(url: URL, allowPrivate: boolean): Agent | undefined {
  if (url.protocol !== 'https:') return undefined;
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = guardedAgent({ allowPrivate });
    agents.set(allowPrivate, agent);
  }
  return agent;
}

function outbound(config: FcmConfig): Outbound {
  return (url, init) => {
    const agent = agentFor(url, config.PUSH_ALLOW_PRIVATE);
    return outboundRequest(
      url,
      { ...init, signal: AbortSignal.timeout(config.PUSH_TIMEOUT_MS) },
      { allowPrivate: config.PUSH_ALLOW_PRIVATE, ...(agent ? { agent } : {}) },
    );
  };
}

async function readJson(res: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    // An answer is a few hundred bytes; a huge one is not FCM's.
    if (size > 64 * 1024) {
      res.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

/** The signed service-account assertion (RFC 7523 JWT bearer grant) for the token endpoint. */
export function serviceAccountAssertion(creds: FcmCredentials, audience: string, nowS: number): string {
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const header = part({
    alg: 'RS256',
    typ: 'JWT',
    ...(creds.privateKeyId ? { kid: creds.privateKeyId } : {}),
  });
  const claims = part({
    iss: creds.clientEmail,
    scope: FCM_SCOPE,
    aud: audience,
    iat: nowS,
    exp: nowS + ASSERTION_LIFETIME_S,
  });
  const signature = createSign('RSA-SHA256')
    .update(`${header}.${claims}`)
    .sign(creds.privateKey, 'base64url');
  return `${header}.${claims}.${signature}`;
}

const accessTokens = new Map<string, Promise<{ token: string; expiresAt: number }>>();

async function fetchAccessToken(creds: FcmCredentials, config: FcmConfig) {
  const body = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: serviceAccountAssertion(creds, config.FCM_TOKEN_URL, Math.floor(Date.now() / 1000)),
  }).toString();
  const res = await outbound(config)(new URL(config.FCM_TOKEN_URL), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const json = (await readJson(res)) as { access_token?: unknown; expires_in?: unknown } | null;
  if (res.statusCode !== 200 || typeof json?.access_token !== 'string')
    throw new Error(`The Firebase token endpoint answered ${res.statusCode}`);
  const seconds = typeof json.expires_in === 'number' ? json.expires_in : 3600;
  return { token: json.access_token, expiresAt: Date.now() + seconds * 1000 };
}

/** An access token for the service account, shared by every push until shortly before it expires. */
async function accessToken(creds: FcmCredentials, config: FcmConfig): Promise<string> {
  const key = `${config.FCM_TOKEN_URL}|${creds.clientEmail}|${creds.projectId}`;
  const current = accessTokens.get(key);
  if (current) {
    const got = await current.catch(() => null);
    if (got && got.expiresAt - TOKEN_MARGIN_MS > Date.now()) return got.token;
    // A failed or expiring token: the first caller to get here replaces it, the others wait for that.
    if (accessTokens.get(key) !== current) return accessToken(creds, config);
  }
  const next = fetchAccessToken(creds, config);
  accessTokens.set(key, next);
  return (await next).token;
}

function forgetAccessToken(creds: FcmCredentials, config: FcmConfig): void {
  accessTokens.delete(`${config.FCM_TOKEN_URL}|${creds.clientEmail}|${creds.projectId}`);
}

/** FCM data values are strings; the spec §3 fields keep their names so a native app reads them alike. */
export function fcmData(message: PushMessage): Record<string, string> {
  return Object.fromEntries(Object.entries(message).map(([k, v]) => [k, String(v)]));
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3); a doubling wait when there is none. */
export function retryDelayMs(header: string | undefined, attempt: number, now = Date.now()): number {
  let ms = 2 ** attempt * 1000;
  if (header && /^\d+$/.test(header.trim())) ms = Number(header.trim()) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Date.parse(header) - now;
  return Math.min(Math.max(ms, 0), MAX_RETRY_DELAY_MS);
}

/** FCM's error codes (google.firebase.fcm.v1.FcmError) after which the token is dead for good. */
const DEAD_TOKEN = new Set(['UNREGISTERED', 'SENDER_ID_MISMATCH']);

function errorCodes(json: unknown): { status: string | undefined; codes: string[] } {
  const error = (json as { error?: { status?: unknown; details?: unknown } } | null)?.error;
  const details = Array.isArray(error?.details) ? (error.details as Array<{ errorCode?: unknown }>) : [];
  return {
    status: typeof error?.status === 'string' ? error.status : undefined,
    codes: details.flatMap((d) => (typeof d.errorCode === 'string' ? [d.errorCode] : [])),
  };
}

export interface FcmSend {
  token: string;
  message: PushMessage;
  urgency: 'normal' | 'high';
  topic: string;
  ttlSeconds: number;
  /** Attempts made before this one (for the wait when FCM names none). */
  attempt: number;
}

/** One push to one registration token. */
export async function sendFcm(creds: FcmCredentials, config: FcmConfig, send: FcmSend): Promise<FcmOutcome> {
  const url = new URL(
    `/v1/projects/${encodeURIComponent(creds.projectId)}/messages:send`,
    config.FCM_API_URL,
  );
  const body = JSON.stringify({
    message: {
      token: send.token,
      data: fcmData(send.message),
      // A browser's token: the same Web Push headers as our own sends (decision 0032).
      webpush: {
        headers: { Urgency: send.urgency, TTL: String(send.ttlSeconds), Topic: send.topic },
      },
      // An Android app's token: high priority wakes the device for mentions; one pending per channel.
      android: {
        priority: send.urgency === 'high' ? 'high' : 'normal',
        ttl: `${send.ttlSeconds}s`,
        collapse_key: send.topic,
      },
    },
  });
  for (let authAttempt = 0; ; authAttempt++) {
    let res: IncomingMessage;
    try {
      const bearer = await accessToken(creds, config);
      res = await outbound(config)(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body,
      });
    } catch (err) {
      return { kind: 'failed', reason: (err as Error).message };
    }
    const status = res.statusCode ?? 0;
    const json = await readJson(res);
    if (status >= 200 && status < 300) return { kind: 'sent' };
    const { status: errorStatus, codes } = errorCodes(json);
    if (codes.some((c) => DEAD_TOKEN.has(c)) || (status === 404 && errorStatus === 'NOT_FOUND'))
      return { kind: 'gone' };
    // An access token revoked or expired early: fetch a new one, once.
    if (status === 401 && authAttempt === 0) {
      forgetAccessToken(creds, config);
      continue;
    }
    if (status === 429 || status >= 500) {
      const header = res.headers['retry-after'];
      return {
        kind: 'retry',
        afterMs: retryDelayMs(Array.isArray(header) ? header[0] : header, send.attempt),
      };
    }
    return {
      kind: 'failed',
      reason: `FCM answered ${status} ${codes.join(',') || errorStatus || ''}`.trim(),
    };
  }
}
