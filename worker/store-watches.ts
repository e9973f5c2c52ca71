// Serves the tabs' store reads (worker/store-reads.ts) on this worker's store: one result sink per tab and
// its watches by id, all stopped when the tab's life lock is released (the tab closed). Tabs are
// untrusted only as far as their own data goes, but a name outside STORE_READS is still refused. Each
// result goes as its change since the previous one (worker/store-changes.ts).
import type { Subscription } from 'rxjs';
import { type StoreReadHandlers, type StoreResult, tabLockName } from './api.ts';
import type { Locks } from './locks.ts';
import { describeChange } from './store-changes.ts';
import { runStoreRead } from './store-reads.ts';
import type { SyncDatabase } from './sync-database.ts';

interface TabWatches {
  sink: (result: StoreResult) => void;
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
  return {
    async openStore(tabId, sink) {
      const previous = tabs.get(tabId);
      if (previous) for (const id of [...previous.watches.keys()]) stop(previous, id);
      tabs.set(tabId, { sink, watches: new Map() });
      void locks?.request(tabLockName(tabId), async () => {
        const tab = tabs.get(tabId);
        if (tab) for (const id of [...tab.watches.keys()]) stop(tab, id);
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
      // The sink is the tab's, through comlink: a result it cannot take (not cloneable) is said, not lost.
      const send = (result: StoreResult) =>
        void Promise.resolve(tab.sink(result)).catch((error: unknown) =>
          console.warn(`The store read ${name} could not reach its tab`, error),
        );
      // The tab holds what was sent last; only what changed since goes (nothing when nothing did).
      let sent: unknown;
      let first = true;
      const subscription = runStoreRead(db, name, args).subscribe({
        next: (value) => {
          const change = first ? { value } : describeChange(sent, value);
          first = false;
          sent = value;
          if (change) send({ watchId, change });
        },
        error: (error: unknown) =>
          send({ watchId, error: error instanceof Error ? error.message : String(error) }),
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
