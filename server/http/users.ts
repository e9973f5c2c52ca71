// The signed-in user's own record and sessions: /api/users.
import type { FastifyInstance } from 'fastify';
import { type User, type UserSession, updateUserBody } from '../../schemas/protocol.ts';
import { toSession, toUser } from '../serialize.ts';
import { getUser, liveSessions, revokeSession, touchSession, updateUser } from '../services/users.ts';
import { getAuth } from './auth-hook.ts';
import type { RouteContext } from './route-context.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: RouteContext): void {
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
    // The revoked token's sockets must go too; the user's other devices reconnect with their own tokens.
    ctx.realtime.disconnectUser(auth.userId);
    return { ok: true };
  });

  app.get('/api/users/sessions', async (request): Promise<{ data: UserSession[] }> => {
    const auth = getAuth(request);
    const rows = await liveSessions(ctx.db, auth.userId);
    return { data: rows.map((row) => toSession(row, auth.sessionId)) };
  });

  app.put('/api/users/sessions/ping', async (request) => {
    await touchSession(ctx.db, getAuth(request).sessionId);
    return { ok: true };
  });
}
