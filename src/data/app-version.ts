// Whether this build is too old for the server: a REST call was answered 426, or the worker's socket was
// refused for its protocol. Only a reload (which loads the new build) helps, so it never clears by itself.
import { useSyncExternalStore } from 'react';

let outdated = false;
const listeners = new Set<() => void>();

export function markOutdated(): void {
  if (outdated) return;
  outdated = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOutdated(): boolean {
  return useSyncExternalStore(subscribe, () => outdated);
}
