// Builds the sync engine inside a worker (browser): opens the store and serves WorkerEndpoint while the
// engine is still starting, so a tab may call in at once. All state lives in IndexedDB, so a killed
// and restarted worker carries on where it stopped.
import { type LanternDatabase, openLanternDatabase } from '../src/store/database.ts';
import { forwardingApi, requireTabPort, tabLockName, type WorkerApi, type WorkerEndpoint } from './api.ts';
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
 * attachTab over an event source: each tab's port hears every event until the tab's life lock is released
 * (the tab closed); then the port closes and the tab's open channel is forgotten too. Without `locks`
 * (Node tests, and a dedicated worker, which dies with its tab) ports stay until the source is cleared.
 */
export function tabAttacher(
  source: Promise<WorkerEventSource>,
  api: WorkerApi,
  locks: Locks | null,
): WorkerEndpoint['attachTab'] {
  return async (tabId, port) => {
    requireTabPort(port, 'attachTab');
    const unlisten = (await source).listenAll((event) => {
      try {
        port.postMessage(event);
      } catch (error) {
        // An event the port cannot carry (not cloneable) is said, not lost silently.
        console.warn(`A worker event could not reach its tab (${event.name})`, error);
      }
    });
    void locks?.request(tabLockName(tabId), async () => {
      unlisten();
      port.close();
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
