// The plumbing under the store hooks (decision 0001): the started client and a background refresh when a
// screen mounts. Their live reads are the worker's (src/data/store-reads.ts, decision 0065).

import { useEffect, useSyncExternalStore } from 'react';
import { afterFirstRows } from '../first-screen/rows-painted.ts';
import { getReadyClient, type LanternClient, startClient, subscribeClientReady } from './client.ts';

export function useLanternClient(): LanternClient | null {
  const client = useSyncExternalStore(subscribeClientReady, getReadyClient, () => null);
  useEffect(() => {
    if (!client) void startClient();
  }, [client]);
  return client;
}

/**
 * Runs `load` once per change of `key` (a background refresh from the server; offline it just fails
 * quietly), after a channel page's first rows: what the screen shows is in the store already, and a
 * refresh the tab writes itself would open the tab's store on the first path (decision 0065).
 */
export function useRefreshOnMount(key: string | null, load: () => Promise<unknown>): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: reruns exactly when the key changes
  useEffect(() => {
    if (key === null) return;
    let live = true;
    afterFirstRows(() => {
      if (live) load().catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, [key]);
}
