// The handshake check: a socket is admitted only with `auth: {token}` naming a live session. Refusals
// carry 'session invalid', the message the client treats as "sign in again".
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { findSession } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { members } from '../db/schema.ts';
import type { LanternServer } from './types.ts';

export function installSocketAuth(io: LanternServer, db: Db, log: Logger): void {
  io.use(async (socket, next) => {
    try {
      const auth: unknown = socket.handshake.auth;
      const token =
        typeof auth === 'object' && auth !== null ? (auth as { token?: unknown }).token : undefined;
      const session = await findSession(db, typeof token === 'string' ? token : null);
      if (!session) return next(new Error('session invalid'));
      const rows = await db
        .select({ institutionId: members.institutionId })
        .from(members)
        .where(eq(members.userId, session.userId));
      socket.data = {
        userId: session.userId,
        sessionId: session.sessionId,
        institutionIds: rows.map((r) => r.institutionId),
      };
      next();
    } catch (err) {
      log.error({ err }, 'socket auth failed');
      next(new Error('An error occurred'));
    }
  });
}
