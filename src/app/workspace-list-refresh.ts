// The client layout asks the server for the workspace list once when it mounts: the store may not know a
// workspace joined on another device yet, and the route must not say "not found" before that answer
// (offline, the local list is all there is). Only a layout that has not found its workspace waits for the
// answer: when the workspace is already listed, the answer settling renders nothing (it used to re-render
// the whole layout, about 200 components, once after every load).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { refreshInstitutions } from '../data/workspaces.ts';

interface Watch {
  settled: boolean;
  listeners: Set<() => void>;
  subscribe: (listener: () => void) => () => void;
}

function newWatch(): Watch {
  const watch: Watch = {
    settled: false,
    listeners: new Set(),
    subscribe: (listener) => {
      watch.listeners.add(listener);
      return () => watch.listeners.delete(listener);
    },
  };
  return watch;
}

const ignore = () => () => {};

/** Refreshes the workspace list on mount; says whether it has settled, to a layout still `waiting` only. */
export function useWorkspaceListRefreshed(waiting: boolean): boolean {
  const [watch] = useState(newWatch);
  useEffect(() => {
    void refreshInstitutions()
      .catch(() => {})
      .finally(() => {
        watch.settled = true;
        for (const listener of watch.listeners) listener();
      });
  }, [watch]);
  return useSyncExternalStore(waiting ? watch.subscribe : ignore, () => waiting && watch.settled);
}
