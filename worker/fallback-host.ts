// The dedicated-worker fallback, one per tab: a Web Lock elects the one worker that runs the engine
// (it owns the socket); every other worker forwards its tab's calls to it over the owner channel and
// hears its events. When the owner's tab closes, its lock passes to the next waiting worker, which
// starts its engine from the shared store (IndexedDB), so nothing queued is lost.
import { tabLockName, type WorkerApi, type WorkerEndpoint } from './api.ts';
import { lazyApi, tabAttacher } from './engine-host.ts';
import { WorkerEventHub } from './events.ts';
import type { Locks } from './locks.ts';
import { type ChannelPort, OwnerChannel } from './owner-channel.ts';
import { runRestCall } from './rest-calls.ts';
import { storeReadHandlers } from './store-watches.ts';
import { storeWriteHandlers } from './store-writes.ts';
import type { SyncDatabase } from './sync-database.ts';
import type { SyncEngine } from './sync-engine.ts';

export interface FallbackHostDeps {
  locks: Locks;
  /** Per build: workers of two builds never share an owner (they may speak different protocols). */
  lockName: string;
  channel: ChannelPort;
  /** Builds the engine on the store; called only once this worker owns the lock. */
  startEngine(): Promise<SyncEngine>;
  /** This worker's store, opened once: every worker serves its own tab's store reads and writes, owner or not. */
  openStore(): Promise<SyncDatabase>;
  log?: (message: string, error?: unknown) => void;
}

export class FallbackHost {
  /** What this worker's tab talks to. */
  readonly endpoint: WorkerEndpoint;
  private readonly deps: FallbackHostDeps;
  private readonly events = new WorkerEventHub({ connection: 'offline' });
  private readonly owner: OwnerChannel;
  private engine: SyncEngine | null = null;
  private readonly watchedTabs = new Set<string>();
  private releaseLock: () => void = () => {};
  private closed = false;

  constructor(deps: FallbackHostDeps) {
    this.deps = deps;
    this.owner = new OwnerChannel(deps.channel, this.events);
    // This worker lives and dies with its tab, so its tab's port needs no lock to be dropped.
    this.endpoint = {
      ...this.owner.api,
      attachTab: tabAttacher(Promise.resolve(this.events), this.owner.api, null),
      restCall: (call) => runRestCall(call),
      ...storeReadHandlers(() => deps.openStore(), null),
      ...storeWriteHandlers(() => deps.openStore()),
    };
    void deps.locks
      .request(deps.lockName, () => this.own())
      .catch((error) => deps.log?.('Network lock failed', error));
  }

  /** Whether this worker runs the engine now. */
  isOwner(): boolean {
    return this.engine !== null;
  }

  /** A newer build's worker started (worker/retirement.ts): this tab is told to reload, and the lock goes. */
  retire(): void {
    if (this.closed) return;
    if (this.engine) this.engine.retire();
    else this.events.emit('connection', 'outdated');
    this.close();
  }

  /** The tab is closing (in a browser the worker simply dies, which releases the lock just the same). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.owner.close();
    this.engine?.close();
    this.engine = null;
    this.events.clear();
    this.releaseLock();
  }

  /** Holds the lock for the life of this worker. */
  private async own(): Promise<void> {
    if (this.closed) return;
    const engine = await this.deps.startEngine();
    if (this.closed) {
      engine.close();
      return;
    }
    this.engine = engine;
    const held = new Promise<void>((resolve) => {
      this.releaseLock = resolve;
    });
    this.owner.becomeOwner(this.servedApi(engine), engine);
    // The tabs' calls (sessionChanged among them) may already have come; the stored session starts it otherwise.
    await engine.sessionChanged().catch((error) => this.deps.log?.('Start-up connect failed', error));
    await held;
  }

  /** The engine's api, forgetting a tab's open channel once that tab has closed. */
  private servedApi(engine: SyncEngine): WorkerApi {
    const api = lazyApi(Promise.resolve(engine));
    return {
      ...api,
      setOpenChannel: async (tabId, channel) => {
        this.watchTab(engine, tabId);
        return engine.setOpenChannel(tabId, channel);
      },
    };
  }

  private watchTab(engine: SyncEngine, tabId: string): void {
    if (this.watchedTabs.has(tabId)) return;
    this.watchedTabs.add(tabId);
    void this.deps.locks.request(tabLockName(tabId), async () => {
      this.watchedTabs.delete(tabId);
      await engine.setOpenChannel(tabId, null);
    });
  }
}
