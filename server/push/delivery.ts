// Hands one push to a browser's push service (RFC 8030): encrypted for the subscription (RFC 8291), signed
// with our VAPID key (RFC 8292), through server/outbound/ like every request to an address a client gave.
// A 404 or 410 means the subscription is gone for good: it is deleted. A Firebase registration token
// (decision 0046) goes through FCM's HTTP v1 API instead, with its own answers.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type WebPush from 'web-push';
import type { PushMessage } from '../../schemas/protocol/index.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { pushSubscriptions } from '../db/schema.ts';
import { guardedAgent, outboundRequest } from '../outbound/outbound-request.ts';
import { sendFcm } from './fcm.ts';
import { fcmCredentials } from './fcm-credentials.ts';
import { fcmTokenOf } from './fcm-token.ts';
import type { VapidKeys } from './vapid.ts';

export interface StoredSubscription {
  sessionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** `retry`: the service asked to be tried again later (FCM's 429/5xx with Retry-After). */
export type DeliveryResult = 'sent' | 'gone' | 'failed' | { retryInMs: number };

/** How long a push service keeps a push for an offline browser: a day-old chat message is not news. */
const TTL_SECONDS = 24 * 60 * 60;

/** The Topic header (RFC 8030 §5.4): one per channel, so an offline device gets only the channel's latest. */
export function channelTopic(channelId: string): string {
  return createHash('sha256').update(channelId).digest('base64url').slice(0, 32);
}

/**
 * One keep-alive agent per kind of settings: a push service takes many pushes in a row, and a TLS handshake
 * for each would cost more than the push. Its connections are made through the address guard.
 */
const agents = new Map<string, Agent>();
function agentFor(config: Pick<Config, 'PUSH_ALLOW_PRIVATE' | 'PUSH_CA_FILE'>): Agent {
  const key = `${config.PUSH_ALLOW_PRIVATE}|${config.PUSH_CA_FILE ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    // The usual authorities stay trusted beside the operator's.
    const ca = config.PUSH_CA_FILE
      ? [...rootCertificates, readFileSync(config.PUSH_CA_FILE, 'utf8')]
      : undefined;
    agent = guardedAgent({ allowPrivate: config.PUSH_ALLOW_PRIVATE, ...(ca ? { ca } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

/** web-push, loaded with the first Web Push a server sends, not at every start (decision 0075). */
let webpushModule: Promise<typeof WebPush> | null = null;
const loadWebpush = () => {
  webpushModule ??= import('web-push').then(
    (m) => m.default,
    (error: unknown) => {
      webpushModule = null;
      throw error;
    },
  );
  return webpushModule;
};

/** VAPID JWTs live 12 h; one is signed per push service origin and reused until an hour before it expires. */
const VAPID_LIFETIME_S = 12 * 3600;
const vapidHeaders = new Map<string, { authorization: string; expiresAt: number }>();
function vapidAuthorization(
  webpush: typeof WebPush,
  audience: string,
  subject: string,
  vapid: VapidKeys,
): string {
  const key = `${audience}|${subject}|${vapid.publicKey}`;
  const now = Math.floor(Date.now() / 1000);
  const cached = vapidHeaders.get(key);
  if (cached && cached.expiresAt - now > 3600) return cached.authorization;
  const expiresAt = now + VAPID_LIFETIME_S;
  const headers = webpush.getVapidHeaders(
    audience,
    subject,
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm',
    expiresAt,
  );
  vapidHeaders.set(key, { authorization: headers.Authorization, expiresAt });
  return headers.Authorization;
}

async function forget(db: Db, subscription: StoredSubscription): Promise<void> {
  await db
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.sessionId, subscription.sessionId),
        eq(pushSubscriptions.endpoint, subscription.endpoint),
      ),
    );
}

async function deliverFcm(
  deps: { db: Db; config: Config; log?: Pick<Logger, 'warn'> },
  subscription: StoredSubscription,
  token: string,
  message: PushMessage,
  urgency: 'normal' | 'high',
  attempt: number,
): Promise<DeliveryResult> {
  // Stored while Firebase was configured; kept (not sent) while it is not, in case it comes back.
  const creds = fcmCredentials(deps.config);
  if (!creds) return 'failed';
  const outcome = await sendFcm(creds, deps.config, {
    token,
    message,
    urgency,
    topic: channelTopic(message.channelId),
    ttlSeconds: TTL_SECONDS,
    attempt,
  });
  switch (outcome.kind) {
    case 'sent':
      return 'sent';
    case 'gone':
      await forget(deps.db, subscription);
      return 'gone';
    case 'retry':
      return { retryInMs: outcome.afterMs };
    case 'failed':
      // Worth an operator's look (revoked service account, wrong project); the token is not logged.
      deps.log?.warn({ reason: outcome.reason }, 'A push through Firebase failed');
      return 'failed';
  }
}

export async function deliver(
  deps: { db: Db; config: Config; vapid: VapidKeys; log?: Pick<Logger, 'warn'> },
  subscription: StoredSubscription,
  message: PushMessage,
  urgency: 'normal' | 'high',
  /** Attempts made before this one. */
  attempt = 0,
): Promise<DeliveryResult> {
  const token = fcmTokenOf(subscription.endpoint);
  if (token !== null) return deliverFcm(deps, subscription, token, message, urgency, attempt);
  const { config, vapid } = deps;
  const webpush = await loadWebpush();
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(message),
    {
      headers: {
        Authorization: vapidAuthorization(
          webpush,
          new URL(subscription.endpoint).origin,
          config.PUSH_VAPID_SUBJECT,
          vapid,
        ),
      },
      TTL: TTL_SECONDS,
      urgency,
      topic: channelTopic(message.channelId),
    },
  );
  const headers = Object.fromEntries(
    Object.entries(details.headers).map(([k, v]) => [k, String(v)]),
  ) as Record<string, string>;
  const signal = AbortSignal.timeout(config.PUSH_TIMEOUT_MS);
  let status: number;
  try {
    const res = await outboundRequest(
      new URL(details.endpoint),
      { method: details.method, headers, body: details.body ?? undefined, signal },
      { allowPrivate: config.PUSH_ALLOW_PRIVATE, agent: agentFor(config) },
    );
    status = res.statusCode ?? 0;
    res.resume();
  } catch {
    return 'failed';
  }
  if (status === 404 || status === 410) {
    await forget(deps.db, subscription);
    return 'gone';
  }
  return status >= 200 && status < 300 ? 'sent' : 'failed';
}
