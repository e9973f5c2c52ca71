// Web Push routes (decision 0032): the key browsers subscribe with, this session's subscription (or its
// Firebase registration token, decision 0046), the caller's Do-not-disturb and their push level per
// channel. Every value is the caller's own: a session
// stores only its own subscription, a level only for a channel the caller is a member of.
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  type ChannelPushLevel,
  channelPushLevelBody,
  id,
  type PushConfigResponse,
  type PushPreferencesResponse,
  type PushSettingsResponse,
  pushSettingsBody,
  pushTokenBody,
} from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import { channelMembers, channelPushLevels, members, pushSettings, pushSubscriptions } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { urlRefusal } from '../outbound/address-guard.ts';
import { fcmCredentials } from '../push/fcm-credentials.ts';
import { fcmEndpoint, fcmTokenRefusal } from '../push/fcm-token.ts';
import { vapidKeys } from '../push/vapid.ts';
import { getAuth } from './auth-hook.ts';

const channelParams = z.object({ id, channelId: id });

/** Where a session's pushes go: a browser's Web Push subscription, or a Firebase registration token. */
type Destination = { endpoint: string; p256dh: string; auth: string };

export function registerPushRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Read now, so a broken Firebase setting stops the start instead of every push (decision 0046).
  const firebase = fcmCredentials(ctx.config) !== null;

  app.get(
    '/api/push/config',
    async (): Promise<PushConfigResponse> => ({
      vapidKey: vapidKeys(ctx.secrets.vapidPrivateKey).publicKey,
      idOnly: ctx.config.PUSH_ID_ONLY,
    }),
  );

  app.put('/api/users/sessions/fcm-token', async (request) => {
    const auth = getAuth(request);
    const { fcmToken, isPwa } = pushTokenBody.parse(request.body);
    let destination: Destination;
    if (typeof fcmToken === 'string') {
      if (!firebase)
        throw badRequest(
          'Firebase messaging is not configured on this server; send the browser’s push subscription instead',
        );
      const refusal = fcmTokenRefusal(fcmToken);
      if (refusal) throw badRequest(refusal);
      // FCM encrypts for its own clients: no keys of ours.
      destination = { endpoint: fcmEndpoint(fcmToken), p256dh: '', auth: '' };
    } else {
      // The endpoint is an address a browser (or anyone with a session) names; the server will post to it.
      const refusal = urlRefusal(new URL(fcmToken.endpoint), ctx.config.PUSH_ALLOW_PRIVATE);
      if (refusal) throw badRequest(`The push endpoint cannot be used: ${refusal}`);
      destination = { endpoint: fcmToken.endpoint, p256dh: fcmToken.keys.p256dh, auth: fcmToken.keys.auth };
    }
    const values = {
      ...destination,
      isPwa: isPwa ?? false,
      updatedAt: new Date(),
    };
    await ctx.db.transaction(async (tx) => {
      // One browser, one endpoint: when someone else signs in on it (the last person's session never
      // signed out), the earlier session's pushes must stop reaching this screen.
      await tx
        .delete(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.endpoint, destination.endpoint),
            ne(pushSubscriptions.sessionId, auth.sessionId),
          ),
        );
      await tx
        .insert(pushSubscriptions)
        .values({ sessionId: auth.sessionId, userId: auth.userId, ...values })
        .onConflictDoUpdate({ target: pushSubscriptions.sessionId, set: values });
    });
    return { ok: true };
  });

  app.delete('/api/users/sessions/fcm-token', async (request) => {
    await ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, getAuth(request).sessionId));
    return { ok: true };
  });

  // Read back on every device: two small indexed queries, the caller's own rows only.
  app.get('/api/users/push-settings', async (request): Promise<PushPreferencesResponse> => {
    const auth = getAuth(request);
    const [settings] = await ctx.db
      .select({ dndUntil: pushSettings.dndUntil })
      .from(pushSettings)
      .where(eq(pushSettings.userId, auth.userId));
    const levels = await ctx.db
      .select({ channelId: channelMembers.channelId, level: channelPushLevels.level })
      .from(channelPushLevels)
      .innerJoin(channelMembers, eq(channelMembers.id, channelPushLevels.channelMemberId))
      .innerJoin(members, eq(members.id, channelMembers.memberId))
      .where(eq(members.userId, auth.userId));
    const until = settings?.dndUntil ?? null;
    return {
      dndUntil: until && until.getTime() > Date.now() ? until.toISOString() : null,
      levels,
    };
  });

  app.put('/api/users/push-settings', async (request): Promise<PushSettingsResponse> => {
    const auth = getAuth(request);
    const { dndUntil } = pushSettingsBody.parse(request.body);
    const until = dndUntil === null ? null : new Date(dndUntil);
    await ctx.db
      .insert(pushSettings)
      .values({ userId: auth.userId, dndUntil: until })
      .onConflictDoUpdate({ target: pushSettings.userId, set: { dndUntil: until } });
    return { dndUntil: until?.toISOString() ?? null };
  });

  app.put(
    '/api/institutions/:id/channels/:channelId/push-level',
    async (request): Promise<{ channelId: string; level: ChannelPushLevel }> => {
      const auth = getAuth(request);
      const p = channelParams.parse(request.params);
      const { level } = channelPushLevelBody.parse(request.body);
      const access = await requireChannelMember(ctx.db, p.id, p.channelId, auth.userId);
      await ctx.db
        .insert(channelPushLevels)
        .values({ channelMemberId: access.channelMember.id, level })
        .onConflictDoUpdate({ target: channelPushLevels.channelMemberId, set: { level } });
      return { channelId: p.channelId, level };
    },
  );
}
