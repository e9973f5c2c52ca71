// The client's end of the held network, in the fuzz client's thread: a LanternSocket and a fetch whose
// every message goes to the test's thread and whose every answer comes back only when the test flushes it.
import { DISCONNECTED_MESSAGE, TIMEOUT_MESSAGE } from '../../src/store/outbox-state.ts';
import type {
  AckOf,
  ClientEventName,
  LanternSocket,
  PayloadOf,
  SocketEvents,
  SocketOptions,
} from '../../worker/socket.ts';
import type { Clock } from '../../worker/timings.ts';
import type { DownMessage, UpMessage } from './link-messages.ts';

type Listener = (...args: unknown[]) => void;

interface PendingAck {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: unknown;
}

export class HeldSocket implements LanternSocket {
  connected = false;
  /** The held network always reconnects when the test says so, as socket.io would on its own. */
  readonly active = true;
  readonly token: string;
  private readonly listeners = new Map<string, Listener[]>();
  private readonly pending = new Map<number, PendingAck>();
  private nextAckId = 1;

  constructor(
    options: SocketOptions,
    private readonly send: (message: UpMessage) => void,
    private readonly clock: Clock,
  ) {
    this.token = options.auth.token;
    send({ kind: 'open', options: JSON.parse(JSON.stringify(options)) as Record<string, unknown> });
  }

  on<E extends keyof SocketEvents>(event: E, listener: SocketEvents[E]): void {
    const list = this.listeners.get(event) ?? [];
    list.push(listener as Listener);
    this.listeners.set(event, list);
  }

  emitWithAck<E extends ClientEventName>(
    event: E,
    payload: PayloadOf<E>,
    timeoutMs: number,
  ): Promise<AckOf<E>> {
    if (!this.connected) return Promise.reject(new Error(DISCONNECTED_MESSAGE));
    const ackId = this.nextAckId++;
    return new Promise<AckOf<E>>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.pending.delete(ackId);
        reject(new Error(TIMEOUT_MESSAGE));
      }, timeoutMs);
      this.pending.set(ackId, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.send({ kind: 'emit', ackId, event, payload });
    });
  }

  connect(): void {
    if (!this.connected) this.send({ kind: 'wantConnect' });
  }

  close(): void {
    this.listeners.clear();
    this.connected = false;
    this.failPending();
    this.send({ kind: 'close' });
  }

  /** A delivery the test flushed. */
  deliver(message: DownMessage): void {
    if (message.kind === 'connected') {
      this.connected = true;
      this.fire('connect');
    } else if (message.kind === 'disconnected') {
      this.connected = false;
      this.fire('disconnect', message.reason);
      this.failPending();
    } else if (message.kind === 'event') {
      this.fire(message.event, ...message.args);
    } else if (message.kind === 'ack') {
      const waiting = this.pending.get(message.ackId);
      if (!waiting) return; // timed out already: the answer is late and lost, as with socket.io
      this.pending.delete(message.ackId);
      this.clock.clearTimeout(waiting.timer);
      waiting.resolve(message.value);
    }
  }

  private failPending(): void {
    for (const waiting of this.pending.values()) {
      this.clock.clearTimeout(waiting.timer);
      waiting.reject(new Error(DISCONNECTED_MESSAGE));
    }
    this.pending.clear();
  }

  private fire(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

/** A fetch over the held network: the request waits for the test, and so does its answer. */
export class HeldFetch {
  private readonly waiting = new Map<
    number,
    { resolve: (r: Response) => void; reject: (e: Error) => void }
  >();
  private nextRequestId = 1;

  constructor(private readonly send: (message: UpMessage) => void) {}

  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const requestId = this.nextRequestId++;
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? init.body : null;
    return new Promise((resolve, reject) => {
      this.waiting.set(requestId, { resolve, reject });
      this.send({
        kind: 'fetch',
        requestId,
        path: url.pathname + url.search,
        method: init?.method ?? 'GET',
        headers,
        body,
      });
    });
  };

  deliver(message: DownMessage): void {
    if (message.kind !== 'response' && message.kind !== 'networkError') return;
    const waiting = this.waiting.get(message.requestId);
    if (!waiting) return;
    this.waiting.delete(message.requestId);
    if (message.kind === 'networkError') waiting.reject(new TypeError('fetch failed'));
    else
      waiting.resolve(
        new Response(message.body === '' ? null : message.body, {
          status: message.status,
          headers: { 'content-type': 'application/json' },
        }),
      );
  }
}
