// The worker's socket.io connection: websocket only, spec §9 reconnect policy, and acknowledged
// emits that never go through socket.io's offline send buffer (the outbox is the only sender).
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../schemas/protocol.ts';
import { DISCONNECTED_MESSAGE, TIMEOUT_MESSAGE } from '../src/store/outbox-state.ts';
import type { Timings } from './timings.ts';

export type LanternSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type SocketFactory = (url: string, options: Parameters<typeof io>[1]) => LanternSocket;

export const MISSING_TOKEN_MESSAGE = 'Access token is missing; cannot connect to socket.';

export function openSocket(
  url: string,
  token: string | null,
  timings: Timings,
  factory: SocketFactory = (u, o) => io(u, o),
  log: (message: string) => void = console.warn,
): LanternSocket | null {
  if (!token) {
    log(MISSING_TOKEN_MESSAGE);
    return null;
  }
  return factory(url, {
    transports: ['websocket'],
    auth: { token },
    reconnection: true,
    reconnectionDelay: timings.reconnectionDelayMs,
    reconnectionDelayMax: timings.reconnectionDelayMaxMs,
    randomizationFactor: 0.5,
    timeout: timings.connectTimeoutMs,
    // Each engine gets its own Manager; sharing one across clients in a process would mix them.
    forceNew: true,
  });
}

type EventName = keyof ClientToServerEvents;
type PayloadOf<E extends EventName> = Parameters<ClientToServerEvents[E]>[0];
type AckOf<E extends EventName> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

/**
 * Emits with an acknowledgement. Rejects with 'request timed out' after `ackTimeoutMs`, and with
 * 'not connected' when the socket is down (nothing is buffered) or drops while waiting.
 */
export function emitWithAck<E extends EventName>(
  socket: LanternSocket,
  event: E,
  payload: PayloadOf<E>,
  ackTimeoutMs: number,
): Promise<AckOf<E>> {
  if (!socket.connected) return Promise.reject(new Error(DISCONNECTED_MESSAGE));
  return new Promise((resolve, reject) => {
    const onDisconnect = () => {
      reject(new Error(DISCONNECTED_MESSAGE));
    };
    socket.once('disconnect', onDisconnect);
    // socket.io's typed emit cannot express the generic event here; the payload/ack types are checked above.
    const timed = socket.timeout(ackTimeoutMs);
    const emit = timed.emit as unknown as (
      e: E,
      p: PayloadOf<E>,
      cb: (err: Error | null, ack: AckOf<E>) => void,
    ) => void;
    emit.call(timed, event, payload, (err, ack) => {
      socket.off('disconnect', onDisconnect);
      if (err) reject(new Error(TIMEOUT_MESSAGE));
      else resolve(ack);
    });
  });
}
