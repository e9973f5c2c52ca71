// The handshake check: a socket is admitted only with `auth: {token}` naming a live session, and only while
// that session has fewer than SOCKETS_PER_SESSION sockets open on all nodes together. Refusals of the token
// carry 'session invalid', the message the client treats as "sign in again". The sessions of the sockets
// arriving in one turn are read together (./handshakes.ts).
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { rooms } from '../context.ts';
import type { Db } from '../db/client.ts';
import { createHandshakes } from './handshakes.ts';
import type { LanternServer } from './types.ts';

/** The refusal a client sees when one token already holds SOCKETS_PER_SESSION sockets. */
export const TOO_MANY_SOCKETS = 'Too many open connections for this session. Close other tabs and try again.';

type SocketAuthConfig = Pick<Config, 'SESSION_IDLE_DAYS' | 'SESSION_MAX_DAYS' | 'SOCKETS_PER_SESSION'>;

export function installSocketAuth(io: LanternServer, db: Db, log: Logger, config: SocketAuthConfig): void {
  const handshakes = createHandshakes(db, config);
  io.use(async (socket, next) => {
    try {
      const auth: unknown = socket.handshake.auth;
      const token =
        typeof auth === 'object' && auth !== null ? (auth as { token?: unknown }).token : undefined;
      const session = await handshakes.identify(typeof token === 'string' ? token : null);
      if (!session) return next(new Error('session invalid'));
      // Counted on every node through the adapter. Two handshakes racing may both pass: the cap bounds
      // what one stolen token can hold open, it does not need to be exact.
      const open = await io.in(rooms.session(session.sessionId)).fetchSockets();
      if (open.length >= config.SOCKETS_PER_SESSION) return next(new Error(TOO_MANY_SOCKETS));
      socket.data = session;
      next();
    } catch (err) {
      log.error({ err }, 'socket auth failed');
      next(new Error('An error occurred'));
    }
  });
}
