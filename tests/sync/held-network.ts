// The test's end of the held network: each fuzz client runs in its own thread (fuzz-client.ts), and
// everything between it and the real server waits here until the test flushes it: socket emits up,
// pushes and acknowledgements down (each in order, like one TCP stream), REST requests and answers
// (in any order). The server end of a connection is a real socket.io client, so the server's handlers,
// rooms and broadcasts are the production ones.
import { io, type Socket } from 'socket.io-client';
import { ClientThread, type NetworkMessage } from './client-thread.ts';
import type { ActionResult, ClientSnapshot, FuzzAction, OpenCommand } from './fuzz-client.ts';
import type { DownMessage, UpMessage } from './link-messages.ts';

type Emit = Extract<UpMessage, { kind: 'emit' }>;
type Request = Extract<UpMessage, { kind: 'fetch' }>;
type Answer = Extract<DownMessage, { kind: 'response' | 'networkError' }>;

export interface ServerAddress {
  readonly url: string;
}

/** The channelId of the refresh event the test broadcasts as a barrier on a channel (never a real channel). */
const BARRIER_PREFIX = '00000000-0000-4000-8000-';
export const barrierMark = (index: number) => `${BARRIER_PREFIX}${index.toString(16).padStart(12, '0')}`;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** One client's thread and its side of the held network. */
export class HeldClient {
  readonly thread: ClientThread;
  /** The engine's socket wants a connection (it opened one and has not closed it). */
  private socketOptions: Record<string, unknown> | null = null;
  private real: Socket | null = null;
  /** Whether the engine was told it is connected. */
  private engineConnected = false;
  readonly up: Emit[] = [];
  readonly down: DownMessage[] = [];
  readonly requests: Request[] = [];
  readonly answers: Answer[] = [];
  /** What reached the server and came back, for the "did work" check. */
  acknowledged = 0;
  private readonly channelBarriers = new Map<string, (() => void)[]>();

  constructor(
    readonly name: string,
    private readonly server: ServerAddress,
    /** Called after anything reached the server: lets every client's pushes arrive before the next step. */
    private readonly onServerWork: () => Promise<void>,
  ) {
    this.thread = new ClientThread(name, (m) => this.receive(m));
  }

  // ───────────── commands to the client ─────────────
  open(command: OpenCommand): Promise<void> {
    return this.thread.open(command);
  }
  act(action: FuzzAction): Promise<ActionResult> {
    return this.thread.act(action);
  }
  settle(): Promise<void> {
    return this.thread.settle();
  }
  advance(ms: number): Promise<void> {
    return this.thread.advance(ms);
  }
  snapshot(): Promise<ClientSnapshot> {
    return this.thread.snapshot();
  }
  async close(): Promise<void> {
    this.cutQuietly();
    await this.thread.close();
    this.socketOptions = null;
  }
  terminate(): Promise<number> {
    return this.thread.terminate();
  }

  // ───────────── the network ─────────────
  get wantsConnection(): boolean {
    return this.socketOptions !== null && this.real === null;
  }
  get isConnected(): boolean {
    return this.real !== null;
  }
  /** Anything held in either direction. */
  get held(): number {
    return this.up.length + this.down.length + this.requests.length + this.answers.length;
  }

  /** What is held, in order, without ids: two runs of a seed compare equal step by step. */
  describe(): string {
    const down = this.down.map((m) => (m.kind === 'event' ? m.event : m.kind));
    const requests = this.requests.map((r) => `${r.method} ${r.path.replace(UUID, ':id')}`);
    const answers = this.answers.map((a) => (a.kind === 'response' ? a.status : 'lost'));
    return `${this.real ? 'up' : 'down'} ↑[${this.up.map((e) => e.event)}] ↓[${down}] rest[${requests}] answers[${answers}]`;
  }

  /** Connects the engine's socket to the server (when it wants one) and tells the engine. */
  async connect(): Promise<void> {
    const options = this.socketOptions;
    if (!options || this.real) return;
    const real = io(this.server.url, { ...options, reconnection: false, forceNew: true });
    const ok = await new Promise<boolean>((resolve) => {
      real.once('connect', () => resolve(true));
      real.once('connect_error', () => resolve(false));
    });
    if (!ok) {
      real.close();
      return;
    }
    this.real = real;
    real.onAny((event: string, ...args: unknown[]) => {
      const mark = event === 'refresh' ? (args[0] as { channelId?: string }).channelId : undefined;
      if (mark?.startsWith(BARRIER_PREFIX)) {
        this.channelBarriers.get(mark)?.shift()?.();
        return;
      }
      this.down.push({ kind: 'event', event, args });
    });
    // Dropped by the server (a restart): the engine sees the transport close.
    real.on('disconnect', () => {
      if (this.real === real) this.cut();
    });
    this.tell({ kind: 'connected' });
    await this.onServerWork();
  }

  /** The connection drops: what is in flight is lost, waiting REST calls fail. */
  cut(): void {
    if (this.cutQuietly()) this.tell({ kind: 'disconnected', reason: 'transport close' });
    for (const r of this.requests.splice(0)) this.post({ kind: 'networkError', requestId: r.requestId });
    for (const a of this.answers.splice(0)) this.post({ kind: 'networkError', requestId: a.requestId });
  }

  /** Sends the oldest held emit to the server; its acknowledgement is held on the way back. */
  async flushUp(): Promise<void> {
    const emit = this.up.shift();
    const real = this.real;
    if (!emit || !real) return;
    await new Promise<void>((resolve) => {
      // The callback runs as the ack frame is read, so it lands in `down` behind the pushes before it.
      real.timeout(30_000).emit(emit.event, emit.payload, (err: Error | null, value: unknown) => {
        if (!err && this.real === real) {
          this.down.push({ kind: 'ack', ackId: emit.ackId, value });
          this.acknowledged++;
        }
        resolve();
      });
    });
    await this.onServerWork();
  }

  /** Hands the oldest held push or acknowledgement to the engine. */
  flushDown(): void {
    const message = this.down.shift();
    if (message) this.tell(message);
  }

  /** Performs a held REST request on the server; its answer is held. */
  async flushRequest(index: number): Promise<void> {
    const [request] = this.requests.splice(index, 1);
    if (!request) return;
    const res = await fetch(this.server.url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    this.answers.push({
      kind: 'response',
      requestId: request.requestId,
      status: res.status,
      body: await res.text(),
    });
    if (request.method !== 'GET') this.acknowledged++;
    await this.onServerWork();
  }

  flushAnswer(index: number): void {
    const [answer] = this.answers.splice(index, 1);
    if (answer) this.post(answer);
  }

  /**
   * A round trip on this client's real connection: every push the server wrote to it before now has
   * arrived (and is held) once this returns. A payload the server refuses makes it free of effects.
   */
  async barrier(): Promise<void> {
    const real = this.real;
    if (!real) return;
    await new Promise<void>((resolve) => {
      real.timeout(30_000).emit('joinChannel', {}, () => resolve());
    });
  }

  /** The server's id of this client's connection, while connected. */
  get socketId(): string | undefined {
    return this.real?.id;
  }

  /**
   * Resolves when the next channel barrier (a broadcast carrying barrierMark(i)) arrives. Channel
   * broadcasts may wait for the server to reload who is in the channel; they keep their order, so
   * every earlier broadcast to the channel has arrived by then.
   */
  channelBarrier(mark: string): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.channelBarriers.get(mark) ?? [];
      waiting.push(resolve);
      this.channelBarriers.set(mark, waiting);
    });
  }

  private cutQuietly(): boolean {
    for (const waiting of this.channelBarriers.values()) for (const resolve of waiting.splice(0)) resolve();
    const real = this.real;
    this.real = null;
    this.up.length = 0;
    this.down.length = 0;
    if (real) {
      real.removeAllListeners();
      real.offAny();
      real.close();
    }
    const wasConnected = this.engineConnected;
    this.engineConnected = false;
    return wasConnected;
  }

  private receive(message: NetworkMessage): void {
    switch (message.kind) {
      case 'open':
        this.cutQuietly();
        this.socketOptions = message.options;
        return;
      case 'wantConnect':
        // An open socket always wants its connection; the schedule decides when it gets it.
        return;
      case 'close':
        this.cutQuietly();
        this.socketOptions = null;
        return;
      case 'emit':
        // An emit on a connection that is already gone is lost with it.
        if (this.real) this.up.push(message);
        return;
      case 'fetch':
        this.requests.push(message);
        return;
    }
  }

  private tell(message: DownMessage): void {
    if (message.kind === 'connected') this.engineConnected = true;
    if (message.kind === 'disconnected') this.engineConnected = false;
    this.post(message);
  }

  private post(message: DownMessage): void {
    this.thread.post(message);
  }
}
