// The client layout asks the server for the workspace list once when it mounts: the store may not know a
// workspace joined on another device yet, and the route must not say "not found" before that answer
// (offline, the local list is all there is). The answer's rows reach the screen's read (a live query of
// the worker's, decision 0065) a moment after the answer itself: a workspace the server listed is waited
// for, never called missing. Only a layout that has not found its
// workspace waits for the answer: when the workspace is already listed, the answer settling renders
// nothing (it used to re-render the whole layout, about 200 components, once after every load).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { refreshInstitutions } from '../data/workspaces.ts';

interface Watch {
  settled: boolean;
  /** The server's workspace ids, or null when it did not answer (offline). */
  listed: ReadonlySet<string> | null;
  listeners: Set<() => void>;
  subscribe: (listener: () => void) => () => void;
}

function newWatch(): Watch {
  const watch: Watch = {
    settled: false,
    listed: null,
    listeners: new Set(),
    subscribe: (listener) => {
      watch.listeners.add(listener);
      return () => watch.listeners.delete(listener);
    },
  };
  return watch;
}

const ignore = () => () => {};

/**
 * Refreshes the workspace list on mount. For a layout whose workspace `missing` is not in the store, says
 * whether that is final: the refresh has settled and the server did not list it (or could not be asked).
 */
export function useWorkspaceMissingSettled(missing: string | null): boolean {
  const [watch] = useState(newWatch);
  useEffect(() => {
    void refreshInstitutions()
      .then((ids) => {
        watch.listed = new Set(ids);
      })
      .catch(() => {})
      .finally(() => {
        watch.settled = true;
        for (const listener of watch.listeners) listener();
      });
  }, [watch]);
  return useSyncExternalStore(
    missing === null ? ignore : watch.subscribe,
    () => missing !== null && watch.settled && !watch.listed?.has(missing),
  );
}
