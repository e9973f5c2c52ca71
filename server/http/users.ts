// The signed-in user's own record and sessions: /api/users.
import type { FastifyInstance } from 'fastify';
import { type User, type UserSession, updateUserBody } from '../../schemas/protocol.ts';
import type { AuthSession } from '../auth/tokens.ts';
import { rooms } from '../context.ts';
import { toSession, toUser } from '../serialize.ts';
import { getUser, liveSessions, revokeSession, touchSession, updateUser } from '../services/users.ts';
import { getAuth } from './auth-hook.ts';
import type { RouteContext } from './route-context.ts';

/**
 * Ends the sockets opened with a revoked token, on every node. Only that session's: a socket the server
 * disconnects does not reconnect by itself, so the person's other devices must be left alone.
 */
async function disconnectSession(io: RouteContext['realtime']['io'], auth: AuthSession): Promise<void> {
  const sockets = await io.in(rooms.user(auth.userId)).fetchSockets();
  for (const socket of sockets) if (socket.data?.sessionId === auth.sessionId) socket.disconnect(true);
}

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
    await disconnectSession(ctx.realtime.io, auth);
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
