// What the worker pushes to tabs, as one typed event map, and the hub that delivers it:
// listen(event, callback) returns the function that stops listening. Tabs and hosts hold the same hub.
import type { MessageDoc, Notice } from '../schemas/collections.ts';

/** 'outdated': the server no longer answers this build's protocol; only a reload (a newer build) helps. */
export type ConnectionStatus = 'offline' | 'connecting' | 'connected' | 'outdated';

export interface UploadProgress {
  uploadId: string;
  /** Bytes sent so far. */
  loaded: number;
  total: number;
}

export interface WorkerEvents {
  /** The socket's state. A new listener hears the current state at once. */
  connection: ConnectionStatus;
  /** A file's bytes on their way up (the store keeps a coarser copy for reloads). */
  uploadProgress: UploadProgress;
  /** The server refused a queued operation; the notice is also stored until a tab shows it. */
  notice: Notice & { institutionId: string };
  /** The build the server serves, as its socket said on connecting (decision 0043). A state, like connection. */
  serverBuild: string;
  /**
   * Someone's new message as it arrived live in a channel a tab shows, before the store has written it: the
   * tab shows it at once and the stored row takes its place (src/store/local-echo.ts; issue 11 item 6).
   */
  arrival: MessageDoc;
  /**
   * The server refused this session token on the worker's own work (a pull, a refresh, the socket's
   * handshake): signed out from another device, or expired. Tabs still holding it sign out (spec §8), as
   * they do when one of their own requests is refused.
   */
  sessionInvalid: string;
}

export type WorkerEventName = keyof WorkerEvents;
export type WorkerListener<E extends WorkerEventName> = (payload: WorkerEvents[E]) => void;
export type Unlisten = () => void;

/** One event as it crosses a port or a channel (structured clone keeps the discriminant). */
export type WorkerEvent = { [E in WorkerEventName]: { name: E; payload: WorkerEvents[E] } }[WorkerEventName];

export interface WorkerEventSource {
  listen<E extends WorkerEventName>(event: E, listener: WorkerListener<E>): Unlisten;
  /** Every event, in order: what a host forwards to a tab or another worker. */
  listenAll(sink: (event: WorkerEvent) => void): Unlisten;
}

/** Events whose last value is a state: a late listener hears it at once. */
type States = Partial<Pick<WorkerEvents, 'connection' | 'serverBuild'>>;

export class WorkerEventHub implements WorkerEventSource {
  private readonly listeners: { [E in WorkerEventName]: Set<WorkerListener<E>> } = {
    connection: new Set(),
    uploadProgress: new Set(),
    notice: new Set(),
    serverBuild: new Set(),
    arrival: new Set(),
    sessionInvalid: new Set(),
  };
  private readonly sinks = new Set<(event: WorkerEvent) => void>();
  private readonly states: States;

  constructor(states: States = {}) {
    this.states = { ...states };
  }

  listen<E extends WorkerEventName>(event: E, listener: WorkerListener<E>): Unlisten {
    const set: Set<WorkerListener<E>> = this.listeners[event];
    set.add(listener);
    const state = this.stateOf(event);
    if (state !== undefined) listener(state);
    return () => {
      set.delete(listener);
    };
  }

  listenAll(sink: (event: WorkerEvent) => void): Unlisten {
    this.sinks.add(sink);
    if (this.states.connection !== undefined) sink({ name: 'connection', payload: this.states.connection });
    if (this.states.serverBuild !== undefined)
      sink({ name: 'serverBuild', payload: this.states.serverBuild });
    return () => {
      this.sinks.delete(sink);
    };
  }

  emit<E extends WorkerEventName>(event: E, payload: WorkerEvents[E]): void {
    if (event === 'connection') this.states.connection = payload as ConnectionStatus;
    if (event === 'serverBuild') this.states.serverBuild = payload as string;
    const set: Set<WorkerListener<E>> = this.listeners[event];
    for (const l of set) l(payload);
    const crossing = { name: event, payload } as WorkerEvent;
    for (const s of this.sinks) s(crossing);
  }

  /** Re-emits an event that crossed from elsewhere. */
  emitEvent(event: WorkerEvent): void {
    this.emit(event.name, event.payload as WorkerEvents[typeof event.name]);
  }

  /** The current connection state, if this hub has one. */
  connection(): ConnectionStatus | undefined {
    return this.states.connection;
  }

  /** Drops every listener (the engine closed). */
  clear(): void {
    for (const set of Object.values(this.listeners)) set.clear();
    this.sinks.clear();
  }

  private stateOf<E extends WorkerEventName>(event: E): WorkerEvents[E] | undefined {
    if (event === 'connection') return this.states.connection as WorkerEvents[E] | undefined;
    if (event === 'serverBuild') return this.states.serverBuild as WorkerEvents[E] | undefined;
    return undefined;
  }
}
