// Builds the sync engine inside a worker (browser): opens the store and serves WorkerEndpoint while the
// engine is still starting, so a tab may call in at once. All state lives in IndexedDB, so a killed
// and restarted worker carries on where it stopped.
import { type LanternDatabase, openLanternDatabase } from '../src/store/database.ts';
import { forwardingApi, tabLockName, type WorkerApi, type WorkerEndpoint } from './api.ts';
import type { WorkerEventSource } from './events.ts';
import type { Locks } from './locks.ts';
import { runRestCall } from './rest-calls.ts';
import { storeReadHandlers } from './store-watches.ts';
import { storeWriteHandlers } from './store-writes.ts';
import { SyncEngine } from './sync-engine.ts';

/** `store`: the worker's already opened store (the fallback opens it for the tab's reads first). */
export function startEngine(store: Promise<LanternDatabase> = openLanternDatabase()): Promise<SyncEngine> {
  return store.then((db) => new SyncEngine({ db, baseUrl: self.location.origin }));
}

/** A WorkerApi that waits for the engine: every method, by construction. */
export function lazyApi(engine: Promise<WorkerApi>): WorkerApi {
  return forwardingApi(
    (method, args) =>
      engine.then((target) =>
        (target[method] as (...a: typeof args) => Promise<unknown>)(...args),
      ) as ReturnType<WorkerApi[typeof method]>,
  );
}

/**
 * attachTab over an event source: each tab's sink hears every event until the tab's life lock is
 * released (the tab closed), and then the tab's open channel is forgotten too. Without `locks` (Node
 * tests) sinks stay until the source is cleared.
 */
export function tabAttacher(
  source: Promise<WorkerEventSource>,
  api: WorkerApi,
  locks: Locks | null,
): WorkerEndpoint['attachTab'] {
  return async (tabId, sink) => {
    const unlisten = (await source).listenAll(sink);
    void locks?.request(tabLockName(tabId), async () => {
      unlisten();
      await api.setOpenChannel(tabId, null);
    });
  };
}

/** The endpoint a SharedWorker (or a test) serves for one engine. */
export function lazyEndpoint(engine: Promise<SyncEngine>, locks: Locks | null): WorkerEndpoint {
  const api = lazyApi(engine);
  return {
    ...api,
    attachTab: tabAttacher(engine, api, locks),
    restCall: (call) => runRestCall(call),
    ...storeReadHandlers(() => engine.then((running) => running.database), locks),
    ...storeWriteHandlers(() => engine.then((running) => running.database)),
  };
}
