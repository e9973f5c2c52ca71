// The worker's connection to the server: the LanternSocket interface the engine talks to, and its
// socket.io implementation (websocket only, spec §9 reconnect policy, acknowledged emits that never go
// through socket.io's offline send buffer: the outbox is the only sender). Tests run the engine over a
// held network that implements the same interface (tests/sync/held-network.ts).
import { io, type Socket } from 'socket.io-client';
import {
  type ClientToServerEvents,
  PROTOCOL_VERSION,
  type ServerToClientEvents,
} from '../schemas/protocol/index.ts';
import { DISCONNECTED_MESSAGE, TIMEOUT_MESSAGE } from '../src/store/outbox-state.ts';
import type { Timings } from './timings.ts';

export type ClientEventName = keyof ClientToServerEvents;
export type PayloadOf<E extends ClientEventName> = Parameters<ClientToServerEvents[E]>[0];
export type AckOf<E extends ClientEventName> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

/** What the server pushes, plus the connection's own lifecycle. */
export type SocketEvents = ServerToClientEvents & {
  connect: () => void;
  disconnect: (reason: string) => void;
  connect_error: (error: Error) => void;
};

export interface LanternSocket {
  readonly connected: boolean;
  /** False once reconnecting stopped (the server's middleware refused): reconnecting is then ours. */
  readonly active: boolean;
  /** The access token this connection authenticates with. */
  readonly token: string | null;
  on<E extends keyof SocketEvents>(event: E, listener: SocketEvents[E]): void;
  /**
   * Emits with an acknowledgement. Rejects with 'request timed out' after `timeoutMs`, and with
   * 'not connected' when the socket is down (nothing is buffered) or drops while waiting.
   */
  emitWithAck<E extends ClientEventName>(
    event: E,
    payload: PayloadOf<E>,
    timeoutMs: number,
  ): Promise<AckOf<E>>;
  connect(): void;
  /** For good: every listener goes and the connection closes. */
  close(): void;
}

export type SocketOptions = NonNullable<Parameters<typeof io>[1]> & { auth: { token: string } };
export type SocketFactory = (url: string, options: SocketOptions) => LanternSocket;

export const MISSING_TOKEN_MESSAGE = 'Access token is missing; cannot connect to socket.';

export function openSocket(
  url: string,
  token: string | null,
  timings: Timings,
  factory: SocketFactory = (u, o) => new SocketIoConnection(io(u, o), o.auth.token),
  log: (message: string) => void = console.warn,
): LanternSocket | null {
  if (!token) {
    log(MISSING_TOKEN_MESSAGE);
    return null;
  }
  return factory(url, {
    transports: ['websocket'],
    // The server refuses a protocol it no longer answers with a connect_error the engine recognises.
    auth: { token, protocol: PROTOCOL_VERSION },
    reconnection: true,
    reconnectionDelay: timings.reconnectionDelayMs,
    reconnectionDelayMax: timings.reconnectionDelayMaxMs,
    randomizationFactor: 0.5,
    timeout: timings.connectTimeoutMs,
    // Each engine gets its own Manager; sharing one across clients in a process would mix them.
    forceNew: true,
  });
}

type AnyListener = (...args: never[]) => void;

/** LanternSocket over the socket.io client. */
class SocketIoConnection implements LanternSocket {
  constructor(
    private readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>,
    readonly token: string,
  ) {
    // Never let socket.io replay emits it buffered while down; the outbox resends what matters.
    socket.on('disconnect', () => {
      socket.sendBuffer = [];
    });
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  get active(): boolean {
    return this.socket.active;
  }

  on<E extends keyof SocketEvents>(event: E, listener: SocketEvents[E]): void {
    // socket.io's overloads cannot take a generic event name; SocketEvents gives the listener its type.
    (this.socket.on as (e: string, l: AnyListener) => void).call(this.socket, event, listener as AnyListener);
  }

  emitWithAck<E extends ClientEventName>(
    event: E,
    payload: PayloadOf<E>,
    timeoutMs: number,
  ): Promise<AckOf<E>> {
    const socket = this.socket;
    if (!socket.connected) return Promise.reject(new Error(DISCONNECTED_MESSAGE));
    return new Promise((resolve, reject) => {
      const onDisconnect = () => {
        reject(new Error(DISCONNECTED_MESSAGE));
      };
      socket.once('disconnect', onDisconnect);
      // socket.io's typed emit cannot express the generic event here; the payload/ack types are checked above.
      const timed = socket.timeout(timeoutMs);
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

  connect(): void {
    this.socket.connect();
  }

  close(): void {
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }
}

/** Emits with an acknowledgement (see LanternSocket.emitWithAck). */
export function emitWithAck<E extends ClientEventName>(
  socket: LanternSocket,
  event: E,
  payload: PayloadOf<E>,
  ackTimeoutMs: number,
): Promise<AckOf<E>> {
  return socket.emitWithAck(event, payload, ackTimeoutMs);
}
