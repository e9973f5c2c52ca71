// The plumbing under every store hook (decision 0001): the started client, a live query that resets
// when its inputs change, records of one kind, and a background refresh when a screen mounts. Every hook
// built on it returns `undefined` until its first result.

import { useEffect, useState, useSyncExternalStore } from 'react';
import { map, type Observable } from 'rxjs';
import type { RecordDoc, RecordKind, RecordKinds } from '../../schemas/collections.ts';
import { getReadyClient, type LanternClient, startClient, subscribeClientReady } from './client.ts';

export function useLanternClient(): LanternClient | null {
  const client = useSyncExternalStore(subscribeClientReady, getReadyClient, () => null);
  useEffect(() => {
    if (!client) void startClient();
  }, [client]);
  return client;
}

/** Subscribes to `make(client)`; resets to undefined whenever a dependency changes. */
export function useObservable<T>(
  make: (client: LanternClient) => Observable<T>,
  deps: readonly unknown[],
): T | undefined {
  const client = useLanternClient();
  const [state, setState] = useState<{ key: readonly unknown[]; value: T } | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's query inputs
  useEffect(() => {
    if (!client) return;
    const key = deps;
    const sub = make(client).subscribe((value) => setState({ key, value }));
    return () => sub.unsubscribe();
  }, [client, ...deps]);
  if (!state || state.key.length !== deps.length || state.key.some((k, i) => k !== deps[i])) return undefined;
  return state.value;
}

const plainCopies = new WeakMap<object, unknown>();

/**
 * A stored document as a plain object, the same object for as long as the document is unchanged (RxDB
 * keeps one document instance per revision): a list re-emitted for one changed row (a colleague coming
 * online) then hands memoised components the others unchanged, and they skip their render.
 */
export function plainDoc<T>(doc: { toJSON(): unknown }): T {
  let copy = plainCopies.get(doc);
  if (copy === undefined) {
    copy = doc.toJSON();
    plainCopies.set(doc, copy);
  }
  return copy as T;
}

/** Rows of one record kind under a channel or workspace, live. */
export function records$<K extends RecordKind>(
  c: LanternClient,
  kind: K,
  filter: { scope: string } | { institutionId: string },
) {
  return c.db.records
    .find({ selector: { kind, ...filter } })
    .$.pipe(map((docs) => docs.map((d) => (d.toJSON() as RecordDoc<K>).data as RecordKinds[K])));
}

/** Runs `load` once per change of `key` (a background refresh from the server; offline it just fails quietly). */
export function useRefreshOnMount(key: string | null, load: () => Promise<unknown>): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: reruns exactly when the key changes
  useEffect(() => {
    if (key === null) return;
    load().catch(() => undefined);
  }, [key]);
}
