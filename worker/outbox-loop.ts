// Push: drains the outbox in order per channel through a send() delegate, and resends what is left.
// It does not import the socket or the store; the engine wires both in, tests pass fakes and a clock.
//
//            kick() / onConnect()                           ack ok / error ack
//   idle ───────────────────────────► draining ─── per channel: send head ──────────► next head
//    ▲  ▲                              │   │                                          │
//    │  └──── nothing queued ──────────┘   └─ transient (timeout, not connected) ─────┤ channel stops
//    │                                                                                 ▼
//    └──────────── resync timer (every resyncIntervalMs while anything is queued) ◄── waiting
//
// onConnect() first settles (asks the server which queued posts it already holds) and then drains,
// so a resend after a reconnect only carries what the server really lacks.
import type { OutboxDoc } from '../schemas/collections.ts';
import { type SendResult, sendable } from '../src/store/outbox-state.ts';
import type { Clock } from './timings.ts';

export interface OutboxLoopDeps {
  /** Current outbox rows (any order). */
  list(): Promise<OutboxDoc[]>;
  send(entry: OutboxDoc): Promise<SendResult>;
  /** Records a result in the store (message status, entry state). */
  record(entry: OutboxDoc, result: SendResult): Promise<void>;
  /** Before resending after a reconnect: confirms what the server already has. */
  settle(queued: OutboxDoc[]): Promise<void>;
  isConnected(): boolean;
  clock: Clock;
  resyncIntervalMs: number;
  log?: (message: string, error?: unknown) => void;
}

export class OutboxLoop {
  private readonly deps: OutboxLoopDeps;
  private draining: Promise<void> | null = null;
  private again = false;
  private needsSettle = true;
  private timer: unknown = null;
  private stopped = false;

  constructor(deps: OutboxLoopDeps) {
    this.deps = deps;
  }

  /** Something was queued (or retried): send it if connected. */
  kick(): Promise<void> {
    return this.run();
  }

  /** Connected or reconnected: settle, then drain. */
  onConnect(): Promise<void> {
    this.needsSettle = true;
    return this.run();
  }

  onDisconnect(): void {
    this.needsSettle = true;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves when the current drain (and any rerun it owes) is over. */
  idle(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private run(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.again = false;
          await this.drainOnce();
        } while (this.again && !this.stopped);
      } finally {
        this.draining = null;
        await this.scheduleResync();
      }
    })();
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    if (!this.deps.isConnected()) return;
    if (this.needsSettle) {
      const queued = (await this.deps.list()).filter((e) => e.state === 'queued');
      if (queued.length) {
        try {
          await this.deps.settle(queued);
        } catch (error) {
          // Without the settle the resend is still safe (the server dedups on genId), only wasteful.
          this.deps.log?.('Could not settle pending messages', error);
        }
      }
      this.needsSettle = false;
    }
    const stalled = new Set<string>();
    const inFlight = new Set<string>();
    const channelRuns = new Map<string, Promise<void>>();
    const next = async (): Promise<void> => {
      const entries = await this.deps.list();
      const heads = sendable(entries, new Set([...inFlight, ...stalled]));
      for (const head of heads) {
        inFlight.add(head.channelId);
        channelRuns.set(head.channelId, this.sendChain(head, inFlight, stalled, next));
      }
    };
    await next();
    // Each channel chains its own sends; wait until all chains have ended.
    while (channelRuns.size) {
      const runs = [...channelRuns.entries()];
      channelRuns.clear();
      await Promise.all(runs.map(([, p]) => p));
    }
    // Two channels' chains can finish before a third channel's rows land; one more pass is cheap.
    if (!stalled.size && this.deps.isConnected()) {
      const left = sendable(await this.deps.list(), new Set());
      if (left.length) this.again = true;
    }
  }

  private async sendChain(
    head: OutboxDoc,
    inFlight: Set<string>,
    stalled: Set<string>,
    next: () => Promise<void>,
  ): Promise<void> {
    let entry: OutboxDoc | undefined = head;
    while (entry && !this.stopped) {
      const result = await this.deps
        .send(entry)
        .catch((error: unknown): SendResult => ({ kind: 'transient', reason: String(error) }));
      await this.deps.record(entry, result);
      if (result.kind === 'transient') {
        stalled.add(entry.channelId);
        break;
      }
      const channelId: string = entry.channelId;
      const rows = await this.deps.list();
      entry = sendable(
        rows.filter((r) => r.channelId === channelId),
        new Set(),
      )[0];
    }
    inFlight.delete(head.channelId);
    // Other channels may have gained rows meanwhile.
    if (!stalled.size) await next();
  }

  private async scheduleResync(): Promise<void> {
    if (this.stopped) return;
    if (this.timer !== null) return;
    const anyQueued = (await this.deps.list()).some((e) => e.state === 'queued');
    if (!anyQueued) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, this.deps.resyncIntervalMs);
  }
}
