// Serves the tabs' store reads (worker/store-reads.ts) on this worker's store: one result port per tab and
// its watches by id, all stopped when the tab's life lock is released (the tab closed). Tabs are
// untrusted only as far as their own data goes, but a name outside STORE_READS is still refused. Each
// result goes as its change since the previous one (worker/store-changes.ts), down the tab's port and
// unanswered (decision 0089): through comlink, every result cost the tab a reply to the worker.
import type { Subscription } from 'rxjs';
import {
  requireTabPort,
  type StoreReadHandlers,
  type StoreResult,
  type StoreResultPort,
  tabLockName,
} from './api.ts';
import type { Locks } from './locks.ts';
import { describeChange } from './store-changes.ts';
import { runStoreRead } from './store-reads.ts';
import type { SyncDatabase } from './sync-database.ts';

interface TabWatches {
  port: StoreResultPort;
  /** A watch's subscription, or null while its store is still opening. */
  watches: Map<string, Subscription | null>;
}

export function storeReadHandlers(
  store: () => Promise<SyncDatabase>,
  locks: Locks | null,
): StoreReadHandlers {
  const tabs = new Map<string, TabWatches>();
  const stop = (tab: TabWatches, watchId: string) => {
    tab.watches.get(watchId)?.unsubscribe();
    tab.watches.delete(watchId);
  };
  const stopAll = (tab: TabWatches) => {
    for (const id of [...tab.watches.keys()]) stop(tab, id);
    tab.port.close();
  };
  const send = (tab: TabWatches, result: StoreResult) => {
    try {
      tab.port.postMessage(result);
    } catch (error) {
      // A result the port cannot carry (not cloneable) is said, not lost silently.
      console.warn(`A store read's result could not reach its tab (${result.watchId})`, error);
    }
  };
  return {
    async openStore(tabId, port) {
      requireTabPort(port, 'openStore');
      const previous = tabs.get(tabId);
      if (previous) stopAll(previous);
      const tab: TabWatches = { port, watches: new Map() };
      tabs.set(tabId, tab);
      void locks?.request(tabLockName(tabId), async () => {
        if (tabs.get(tabId) !== tab) return;
        stopAll(tab);
        tabs.delete(tabId);
      });
      // The tab opens no store of its own at start (decision 0065): a store that cannot open (a newer
      // database, storage withheld in a course frame) reaches it as this call's rejection.
      await store();
    },
    async watchStore(tabId, watchId, name, args) {
      const tab = tabs.get(tabId);
      if (!tab) throw new Error('This tab has not opened the store (openStore first).');
      if (tab.watches.has(watchId)) return;
      tab.watches.set(watchId, null);
      const db = await store();
      // Stopped while the store was opening.
      if (!tab.watches.has(watchId)) return;
      // The tab holds what was sent last; only what changed since goes (nothing when nothing did).
      let sent: unknown;
      let first = true;
      const subscription = runStoreRead(db, name, args).subscribe({
        next: (value) => {
          const change = first ? { value } : describeChange(sent, value);
          first = false;
          sent = value;
          if (change) send(tab, { watchId, change });
        },
        error: (error: unknown) =>
          send(tab, { watchId, error: error instanceof Error ? error.message : String(error) }),
      });
      if (tab.watches.has(watchId)) tab.watches.set(watchId, subscription);
      else subscription.unsubscribe();
    },
    async unwatchStore(tabId, watchId) {
      const tab = tabs.get(tabId);
      if (tab) stop(tab, watchId);
    },
  };
}
