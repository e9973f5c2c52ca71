// After a message is committed and acknowledged: decide who gets a push and send them, off the post's path
// (the post has already been answered; nothing here can slow or fail it).

import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { plainText } from '../../schemas/plain-text.ts';
import { liveSessionCondition } from '../auth/session-lifetime.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, members, pushSubscriptions, sessions } from '../db/schema.ts';
import type { Secrets } from '../secrets.ts';
import { type PostedMessage, readAudience } from './audience.ts';
import { decidePushes, type PushDecision } from './decision.ts';
import { type DeliveryResult, deliver } from './delivery.ts';
import { buildPayload } from './payload.ts';
import { unreadTotals } from './unread-total.ts';
import { vapidKeys } from './vapid.ts';

export type PushContext = { db: Db; config: Config; secrets: Secrets; log: Logger };

/** Pushes in flight per server; more wait, so a burst of @everyone cannot open thousands of sockets. */
const MAX_CONCURRENT = 32;
let running = 0;
const queue: Array<() => void> = [];
async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => queue.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    queue.shift()?.();
  }
}

/** Tries in all for one push when the service keeps asking to wait (FCM's 429/5xx, decision 0046). */
const MAX_ATTEMPTS = 3;

/** Sends, and again after the wait the service asked for; the wait holds no slot of the limit above. */
async function deliverWithRetries(
  send: (attempt: number) => Promise<DeliveryResult>,
): Promise<DeliveryResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await limited(() => send(attempt));
    if (typeof result === 'string') return result;
    if (attempt + 1 >= MAX_ATTEMPTS) return 'failed';
    // Unreferenced: a server stopping does not wait for a retry.
    await new Promise((resolve) => setTimeout(resolve, result.retryInMs).unref());
  }
}

type Subscription = {
  sessionId: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  isPwa: boolean;
  live: boolean;
};

/**
 * The push subscriptions of the people of these channels, by channel, in one statement. Subscriptions
 * of ended sessions (signed out, idle or too old) are removed and left out.
 */
async function liveSubscriptions(ctx: PushContext, channelIds: readonly string[]) {
  const rows = await ctx.db
    .select({
      channelId: channelMembers.channelId,
      sessionId: pushSubscriptions.sessionId,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
      isPwa: pushSubscriptions.isPwa,
      live: sql<boolean>`coalesce(${liveSessionCondition(ctx.config)}, false)`,
    })
    .from(pushSubscriptions)
    .innerJoin(sessions, eq(sessions.id, pushSubscriptions.sessionId))
    .innerJoin(members, eq(members.userId, pushSubscriptions.userId))
    .innerJoin(
      channelMembers,
      and(eq(channelMembers.memberId, members.id), inArray(channelMembers.channelId, [...channelIds])),
    );
  const byChannel = new Map<string, Subscription[]>();
  if (rows.length === 0) return byChannel;
  const ended = [...new Set(rows.filter((s) => !s.live).map((s) => s.sessionId))];
  if (ended.length > 0)
    await ctx.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.sessionId, ended));
  for (const { channelId, ...sub } of rows) {
    if (!sub.live) continue;
    const list = byChannel.get(channelId) ?? [];
    list.push(sub);
    byChannel.set(channelId, list);
  }
  return byChannel;
}

/** Sends the pushes a committed message calls for; resolves when all were handed over (tests wait on it). */
export async function sendPushes(
  ctx: PushContext,
  message: PostedMessage,
  now = new Date(),
  /** The channel's live subscriptions, when already read (schedulePushes reads them for many posts). */
  subscriptions?: readonly Subscription[],
  /** Unread totals of (at least) the people decided for, when already read for many posts. */
  unreadByUser?: ReadonlyMap<string, number>,
): Promise<number> {
  // Subscriptions of the channel's people first: most posts reach nobody subscribed, and then this one
  // query is all a post costs.
  const live =
    subscriptions ?? (await liveSubscriptions(ctx, [message.channelId])).get(message.channelId) ?? [];
  if (live.length === 0) return 0;
  const audience = await readAudience(ctx.db, message, now, [...new Set(live.map((s) => s.userId))]);
  if (!audience) return 0;
  const decisions = decidePushes(audience.facts, audience.recipients, now);
  const byUser = new Map<string, PushDecision>(decisions.map((d) => [d.userId, d]));
  if (byUser.size === 0) return 0;
  const unread = unreadByUser ?? (await unreadTotals(ctx.db, [...byUser.keys()]));

  const vapid = vapidKeys(ctx.secrets.vapidPrivateKey);
  const text = ctx.config.PUSH_ID_ONLY ? '' : plainText(message.content);
  const results = await Promise.all(
    live
      .filter((s) => byUser.has(s.userId))
      .map((s) => {
        const decision = byUser.get(s.userId) as PushDecision;
        const payload = buildPayload({
          reason: decision.reason,
          authorName: audience.authorName,
          channelName: audience.channelName,
          channelId: message.channelId,
          institutionId: message.institutionId,
          messageId: message.id,
          text,
          isPwa: s.isPwa,
          idOnly: ctx.config.PUSH_ID_ONLY,
          unreadCount: unread.get(s.userId) ?? 0,
        });
        const urgency = decision.reason === 'message' ? 'normal' : 'high';
        return deliverWithRetries((attempt) =>
          deliver({ db: ctx.db, config: ctx.config, vapid, log: ctx.log }, s, payload, urgency, attempt),
        );
      }),
  );
  return results.filter((r) => r === 'sent').length;
}

/**
 * How long committed posts gather before their subscriptions are read in one statement. On PGlite every
 * statement runs on the server's thread, and one read per post sat between the next posts' commits (the
 * most expensive statement a post caused); a push is allowed up to a second (issue 13).
 */
const GATHER_MS = 100;
const gathering = new WeakMap<Db, { ctx: PushContext; messages: PostedMessage[] }>();

/** Sends the message's pushes shortly, off the post's path, with other posts of the moment; failures are logged. */
export function schedulePushes(ctx: PushContext, message: PostedMessage): void {
  const waiting = gathering.get(ctx.db);
  if (waiting) {
    waiting.messages.push(message);
    return;
  }
  const batch = { ctx, messages: [message] };
  gathering.set(ctx.db, batch);
  setTimeout(() => {
    gathering.delete(ctx.db);
    void sendGathered(batch.ctx, batch.messages);
  }, GATHER_MS);
}

async function sendGathered(ctx: PushContext, messages: readonly PostedMessage[]): Promise<void> {
  try {
    const byChannel = await liveSubscriptions(ctx, [...new Set(messages.map((m) => m.channelId))]);
    if (byChannel.size === 0) return;
    // The badge counts of everyone subscribed, once for the gathered posts (all committed by now, so
    // each is counted): one statement per post cost the bench as much as the rest of the push's reads.
    const subscribers = new Set([...byChannel.values()].flatMap((list) => list.map((s) => s.userId)));
    const unread = await unreadTotals(ctx.db, [...subscribers]);
    await Promise.all(
      messages
        .filter((m) => byChannel.has(m.channelId))
        .map((m) =>
          sendPushes(ctx, m, new Date(), byChannel.get(m.channelId), unread).catch((err: unknown) =>
            ctx.log.warn({ err }, 'Sending pushes failed'),
          ),
        ),
    );
  } catch (err) {
    ctx.log.warn({ err }, 'Sending pushes failed');
  }
}
