// A module kept off a page's first scripts and loaded later (decisions 0065, 0067): loaded once, what it
// gave kept for synchronous reads, listeners told when it is in, and a load that failed (offline before the
// service worker holds the file) tried again by the next caller instead of remembered.
import { useSyncExternalStore } from 'react';

export interface DeferredModule<M> {
  /** Starts the load, or joins the one under way. */
  load(): Promise<M>;
  /** The module once loaded; undefined before. */
  current(): M | undefined;
  subscribe(listener: () => void): () => void;
}

export function deferredModule<M>(importer: () => Promise<M>): DeferredModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const listeners = new Set<() => void>();
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          loaded = module;
          for (const listener of listeners) listener();
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    current: () => loaded,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The module once loaded, re-rendering when it comes; undefined before. */
export function useDeferredModule<M>(module: DeferredModule<M>): M | undefined {
  return useSyncExternalStore(module.subscribe, module.current, module.current);
}
