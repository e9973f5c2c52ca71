// The signed-in user's own record and sessions: /api/users.
import type { FastifyInstance } from 'fastify';
import {
  pingSessionBody,
  sessionIdParams,
  type User,
  type UserSession,
  updateUserBody,
} from '../../schemas/protocol/index.ts';
import { startSessionPurge } from '../auth/session-retention.ts';
import type { AppContext } from '../context.ts';
import { recordActivity } from '../push/activity.ts';
import { endPushSubscriptions } from '../push/subscriptions.ts';
import {
  getUser,
  liveSessions,
  revokeOtherSessions,
  revokeOwnSession,
  revokeSession,
  toSession,
  toUser,
  touchSession,
  updateUser,
} from '../services/users.ts';
import { getAuth } from './auth-hook.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  const stopPurge = startSessionPurge(ctx.db, ctx.config, ctx.log);
  app.addHook('onClose', async () => stopPurge());

  app.get(
    '/api/users',
    async (request): Promise<User> => toUser(await getUser(ctx.db, getAuth(request).userId)),
  );

  app.put('/api/users', async (request): Promise<User> => {
    const patch = updateUserBody.parse(request.body);
    return toUser(await updateUser(ctx.db, getAuth(request).userId, patch));
  });

  app.put('/api/users/logout', async (request) => {
    const auth = getAuth(request);
    await revokeSession(ctx.db, auth.sessionId);
    await endPushSubscriptions(ctx.db, [auth.sessionId]);
    ctx.realtime.disconnectSession(auth.sessionId);
    return { ok: true };
  });

  app.get('/api/users/sessions', async (request): Promise<{ data: UserSession[] }> => {
    const auth = getAuth(request);
    const rows = await liveSessions(ctx.db, ctx.config, auth.userId);
    const current = rows.find((row) => row.id === auth.sessionId) ?? {
      id: auth.sessionId,
      sessionClientId: null,
    };
    return { data: rows.map((row) => toSession(row, current)) };
  });

  // Sign out one device (this one included). Its token answers 401 from now on and its sockets close on
  // every node.
  app.delete('/api/users/sessions/:sessionId', async (request) => {
    const auth = getAuth(request);
    const { sessionId } = sessionIdParams.parse(request.params);
    await revokeOwnSession(ctx.db, ctx.config, auth.userId, sessionId);
    await endPushSubscriptions(ctx.db, [sessionId]);
    ctx.realtime.disconnectSession(sessionId);
    return { ok: true };
  });

  // "Sign out everywhere else": every session of the caller but the one making this request.
  app.post('/api/users/sessions/revoke-others', async (request) => {
    const auth = getAuth(request);
    const revoked = await revokeOtherSessions(ctx.db, ctx.config, auth.userId, auth.sessionId);
    await endPushSubscriptions(ctx.db, revoked);
    for (const sessionId of revoked) ctx.realtime.disconnectSession(sessionId);
    return { revoked: revoked.length };
  });

  app.put('/api/users/sessions/ping', async (request) => {
    const { sessionClientId, channelId } = pingSessionBody.parse(request.body ?? {});
    const auth = getAuth(request);
    await touchSession(ctx.db, auth.sessionId, sessionClientId);
    // Activity for the push decision; a channel id is only a claim about where this session is, and it only
    // ever holds back the caller's own pushes, so it needs no membership check.
    await recordActivity(ctx.db, auth, channelId ?? null);
    return { ok: true };
  });
}
