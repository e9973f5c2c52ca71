// Builds the sync engine inside a worker (browser): opens the store and serves WorkerApi while the
// engine is still starting, so a tab may call in at once. All state lives in IndexedDB, so a killed
// and restarted worker carries on where it stopped.
import { openLanternDatabase } from '../src/store/database.ts';
import type { WorkerApi } from './api.ts';
import { SyncEngine } from './sync-engine.ts';

export function startEngine(): Promise<SyncEngine> {
  return openLanternDatabase().then((db) => new SyncEngine({ db, baseUrl: self.location.origin }));
}

/** A WorkerApi that waits for the engine; `guard` lets the fallback host reroute calls. */
export function lazyApi(engine: Promise<SyncEngine>): WorkerApi {
  return {
    sessionChanged: async (token) => (await engine).sessionChanged(token),
    getConnectionStatus: async () => (await engine).getConnectionStatus(),
    subscribeConnection: async (listener) => (await engine).subscribeConnection(listener),
    refresh: async (trigger, force) => (await engine).refresh(trigger, force),
    drainOutbox: async () => (await engine).drainOutbox(),
    uploadFiles: async () => (await engine).uploadFiles(),
    channelsChanged: async () => (await engine).channelsChanged(),
    pullChannel: async (channelId) => (await engine).pullChannel(channelId),
    setOpenChannel: async (tabId, channel) => (await engine).setOpenChannel(tabId, channel),
    visit: async (visit) => (await engine).visit(visit),
  };
}
