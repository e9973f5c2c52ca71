// A fuzz client's thread seen from the test: starts fuzz-client.ts in a worker thread (its own realm, so
// each client opens the full store within RxDB's per-realm collection limit) and calls its commands.
// What the client sends to the network goes to `onNetwork` (the held network; nothing in real mode).
import { Worker } from 'node:worker_threads';
import type { ActionResult, ClientSnapshot, FuzzAction, OpenCommand } from './fuzz-client.ts';
import type { DownMessage, UpMessage } from './link-messages.ts';

export type NetworkMessage = Exclude<UpMessage, { kind: 'reply' }>;

export class ClientThread {
  private readonly worker: Worker;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextCallId = 1;
  private failure: Error | null = null;

  constructor(
    readonly name: string,
    onNetwork: (message: NetworkMessage) => void = () => {},
  ) {
    // tsx compiles the client's TypeScript in the thread; vitest's own loader does not reach threads.
    this.worker = new Worker(new URL('./client-thread-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./fuzz-client.ts', import.meta.url).href },
    });
    this.worker.on('message', (message: UpMessage) => {
      if (message.kind !== 'reply') return onNetwork(message);
      const waiting = this.calls.get(message.callId);
      this.calls.delete(message.callId);
      if (message.error !== undefined) waiting?.reject(new Error(`${this.name}: ${message.error}`));
      else waiting?.resolve(message.value);
    });
    this.worker.on('error', (e: unknown) => {
      const error = e instanceof Error ? e : new Error(String(e));
      this.failure = error;
      for (const c of this.calls.values()) c.reject(error);
      this.calls.clear();
    });
  }

  private call<T>(command: string, ...args: unknown[]): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const callId = this.nextCallId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(callId, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ kind: 'call', callId, command, args });
    });
  }

  post(message: DownMessage): void {
    this.worker.postMessage(message);
  }

  open(command: OpenCommand): Promise<void> {
    return this.call('open', command);
  }
  act(action: FuzzAction): Promise<ActionResult> {
    return this.call('act', action);
  }
  /** Until the client waits only on the network (held network only). */
  settle(): Promise<void> {
    return this.call('settle');
  }
  /** Moves the client's clock (resends, acknowledgement time-outs), then settles (held network only). */
  advance(ms: number): Promise<void> {
    return this.call('advance', ms);
  }
  /** Joins and pulls every channel, then waits for the engine to be quiet (real network only). */
  catchUp(): Promise<void> {
    return this.call('catchUp');
  }
  snapshot(): Promise<ClientSnapshot> {
    return this.call('snapshot');
  }
  close(): Promise<void> {
    return this.call('close');
  }
  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}
