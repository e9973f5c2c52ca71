// The fallback's one typed request/response channel. Where SharedWorker is missing every tab runs its
// own dedicated worker, and only the one whose tab holds the network lock (the owner) runs the engine.
// Every other worker forwards each WorkerApi call over this channel and the owner answers it; the
// owner publishes its events to all. Calls are built from WORKER_METHODS, so none can be left out.
//
//   follower ── call {id, from, method, args} ──────────► owner: runs it on its engine
//   follower ◄── reply {id, to, ok, value | message} ─────┘
//   every worker ◄── event {name, payload} ───────────── owner
//   newcomer ── hello ──► owner ── event (its current connection state) ──► every worker
//   every worker ◄── owner {from} ─── a new owner: followers send their unanswered calls again
//
// A call is never lost to a change of owner: it stays pending until some owner answers. Being sent
// twice is harmless, because every WorkerApi call is safe to repeat (they are nudges and reports).
import { forwardingApi, type WorkerApi, type WorkerMethod } from './api.ts';
import type { Unlisten, WorkerEvent, WorkerEventHub, WorkerEventSource } from './events.ts';

type Call = {
  [M in WorkerMethod]: { kind: 'call'; id: string; from: string; method: M; args: Parameters<WorkerApi[M]> };
}[WorkerMethod];

type Reply = { kind: 'reply'; id: string; to: string } & (
  | { ok: true; value: unknown }
  | { ok: false; message: string }
);

type Envelope =
  | Call
  | Reply
  | { kind: 'event'; event: WorkerEvent }
  | { kind: 'hello'; from: string }
  | { kind: 'owner'; from: string };

/** A BroadcastChannel, as far as this module uses one. */
export interface ChannelPort {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

interface Pending {
  call: Call;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class OwnerChannel {
  /** What this worker's tab calls: forwarded to the owner, or run here while this worker owns. */
  readonly api: WorkerApi;
  private readonly id = crypto.randomUUID();
  private readonly channel: ChannelPort;
  /** This worker's tab-facing events: the owner's, as they arrive. */
  private readonly events: WorkerEventHub;
  private readonly pending = new Map<string, Pending>();
  private owning: { api: WorkerApi; unlisten: Unlisten } | null = null;
  private knownOwner: string | null = null;
  private closed = false;

  constructor(channel: ChannelPort, events: WorkerEventHub) {
    this.channel = channel;
    this.events = events;
    this.channel.onmessage = (event) => this.receive(event.data as Envelope);
    this.api = forwardingApi((method, args) => this.call(method, args));
    this.post({ kind: 'hello', from: this.id });
  }

  /** This worker holds the lock now: serve every call with `api` and publish `source`'s events. */
  becomeOwner(api: WorkerApi, source: WorkerEventSource): void {
    if (this.closed) return;
    const unlisten = source.listenAll((event) => {
      this.events.emitEvent(event);
      this.post({ kind: 'event', event });
    });
    this.owning = { api, unlisten };
    this.knownOwner = this.id;
    this.post({ kind: 'owner', from: this.id });
    // Calls this tab made while nobody owned run here now.
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) this.run(p.call).then(p.resolve, p.reject);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.owning?.unlisten();
    this.owning = null;
    this.channel.onmessage = null;
    this.channel.close();
    for (const p of this.pending.values()) p.reject(new Error('This tab is closing'));
    this.pending.clear();
  }

  private call<M extends WorkerMethod>(method: M, args: Parameters<WorkerApi[M]>): ReturnType<WorkerApi[M]> {
    const call = { kind: 'call', id: crypto.randomUUID(), from: this.id, method, args } as Call;
    if (this.owning) return this.run(call) as ReturnType<WorkerApi[M]>;
    if (this.closed) return Promise.reject(new Error('This tab is closing')) as ReturnType<WorkerApi[M]>;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(call.id, { call, resolve, reject });
      this.post(call);
    }) as ReturnType<WorkerApi[M]>;
  }

  /** Runs a call on the owner's own api. */
  private run(call: Call): Promise<unknown> {
    const api = this.owning?.api;
    if (!api) return Promise.reject(new Error('This worker does not own the network'));
    const method = api[call.method] as (...args: Call['args']) => Promise<unknown>;
    return method(...call.args);
  }

  private receive(message: Envelope): void {
    if (this.closed) return;
    switch (message.kind) {
      case 'call':
        if (this.owning) void this.answer(message);
        return;
      case 'reply': {
        const pending = message.to === this.id ? this.pending.get(message.id) : undefined;
        if (!pending) return;
        this.pending.delete(message.id);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new Error(message.message));
        return;
      }
      case 'event':
        if (!this.owning) this.events.emitEvent(message.event);
        return;
      case 'hello': {
        const status = this.owning ? this.events.connection() : undefined;
        if (status) this.post({ kind: 'event', event: { name: 'connection', payload: status } });
        return;
      }
      case 'owner':
        if (message.from === this.knownOwner) return;
        this.knownOwner = message.from;
        for (const p of this.pending.values()) this.post(p.call);
        return;
    }
  }

  private async answer(call: Call): Promise<void> {
    try {
      const value = await this.run(call);
      this.post({ kind: 'reply', id: call.id, to: call.from, ok: true, value });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.post({ kind: 'reply', id: call.id, to: call.from, ok: false, message });
    }
  }

  private post(message: Envelope): void {
    if (!this.closed) this.channel.postMessage(message);
  }
}
