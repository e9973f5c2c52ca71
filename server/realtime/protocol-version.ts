// The socket side of the protocol window: a handshake whose `auth.protocol` is older than the server answers
// is refused with a connect_error carrying {code: 'protocol_outdated', minVersion}, so the client can tell it
// apart from a bad session and ask the person to reload. A handshake without it (a tool) goes on to auth.
import { PROTOCOL_OUTDATED_MESSAGE, type ProtocolRefusal } from '../../schemas/protocol/index.ts';
import type { LanternServer } from './types.ts';

/** socket.io sends an error's `data` to the client with the connect_error. */
type RefusalError = Error & { data: ProtocolRefusal };

export function installProtocolVersionCheck(io: LanternServer, minVersion: number): void {
  io.use((socket, next) => {
    const auth: unknown = socket.handshake.auth;
    const protocol =
      typeof auth === 'object' && auth !== null ? (auth as { protocol?: unknown }).protocol : undefined;
    if (protocol === undefined) return next();
    if (typeof protocol !== 'number' || !Number.isInteger(protocol))
      return next(new Error('auth.protocol must be a whole number'));
    if (protocol >= minVersion) return next();
    const refusal = new Error(PROTOCOL_OUTDATED_MESSAGE) as RefusalError;
    refusal.data = { code: 'protocol_outdated', minVersion };
    next(refusal);
  });
}
