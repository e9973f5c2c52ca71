// The tab's side of the store reads its worker makes (decision 0065): one watch per read name and
// arguments, shared by every component that asks for it and kept a moment after the last one leaves (a
// screen that remounts gets its value at once). A result comes as its change (worker/store-changes.ts):
// the parts it leaves alone stay the objects the screens already hold.
import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { RecordKind, RecordKinds } from '../../schemas/collections.ts';
import type { StoreResult, WorkerEndpoint } from '../../worker/api.ts';
import { applyChange } from '../../worker/store-changes.ts';
import type { StoreReadArgs, StoreReadName, StoreReadValue } from '../../worker/store-reads.ts';

/** How long a read nobody shows is kept before its watch stops. */
const KEEP_UNWATCHED_MS = 5_000;

interface Watch {
  id: string;
  name: StoreReadName;
  args: unknown;
  value: unknown;
  listeners: Set<() => void>;
  /** Asked of the worker (cleared when the worker changes, so the read is asked again). */
  started: boolean;
  stopTimer: ReturnType<typeof setTimeout> | null;
}

interface Connection {
  worker: Pick<WorkerEndpoint, 'watchStore' | 'unwatchStore'>;
  tabId: string;
}

const watches = new Map<string, Watch>();
const byId = new Map<string, Watch>();
let connection: Connection | null = null;
let nextId = 0;
/** Starts the client (src/data/client.ts registers it), so a read asked before it started is served. */
let startConnection: () => void = () => {};

export function setStoreReadStarter(start: () => void): void {
  startConnection = start;
}

/** The tab's worker is ready: every read asked so far is started there. */
export function connectStoreReads(next: Connection): void {
  connection = next;
  for (const watch of watches.values()) {
    watch.started = false;
    if (watch.listeners.size > 0 || watch.stopTimer) start(watch);
  }
}

/** What the worker's port brings: a new result for one watch. */
export function deliverStoreResult(result: StoreResult): void {
  const watch = byId.get(result.watchId);
  if (!watch) return;
  if ('error' in result) {
    console.warn(`The store read ${watch.name} failed: ${result.error}`);
    return;
  }
  watch.value = applyChange(watch.value, result.change);
  for (const listener of watch.listeners) listener();
}

function start(watch: Watch): void {
  if (!connection || watch.started) return;
  watch.started = true;
  connection.worker
    .watchStore(connection.tabId, watch.id, watch.name, watch.args)
    .catch((error: unknown) => console.warn(`The store read ${watch.name} could not start`, error));
}

function stop(key: string, watch: Watch): void {
  watches.delete(key);
  byId.delete(watch.id);
  if (connection && watch.started)
    void connection.worker.unwatchStore(connection.tabId, watch.id).catch(() => {});
}

function watchFor(key: string, name: StoreReadName, args: unknown): Watch {
  let watch = watches.get(key);
  if (!watch) {
    watch = {
      id: `w${nextId++}`,
      name,
      args,
      value: undefined,
      listeners: new Set(),
      started: false,
      stopTimer: null,
    };
    watches.set(key, watch);
    byId.set(watch.id, watch);
  }
  return watch;
}

function keyOf(name: string, args: unknown): string {
  return `${name}:${JSON.stringify(args ?? {})}`;
}

/** Subscribes to a store read: undefined until its first result, then each change. */
export function subscribeStoreRead<N extends StoreReadName>(
  name: N,
  args: StoreReadArgs<N>,
  listener: (value: StoreReadValue<N>) => void,
): () => void {
  const key = keyOf(name, args);
  const watch = watchFor(key, name, args);
  const notify = () => listener(watch.value as StoreReadValue<N>);
  watch.listeners.add(notify);
  if (watch.stopTimer) {
    clearTimeout(watch.stopTimer);
    watch.stopTimer = null;
  }
  if (connection) start(watch);
  else startConnection();
  if (watch.value !== undefined) notify();
  return () => {
    watch.listeners.delete(notify);
    if (watch.listeners.size > 0) return;
    watch.stopTimer = setTimeout(() => {
      watch.stopTimer = null;
      if (watch.listeners.size === 0 && watches.get(key) === watch) stop(key, watch);
    }, KEEP_UNWATCHED_MS);
  };
}

/** A store read's current result, once (waiting for the first when none has come yet). */
export function readStoreOnce<N extends StoreReadName>(
  name: N,
  args: StoreReadArgs<N>,
): Promise<StoreReadValue<N>> {
  return new Promise((resolve) => {
    let stop: (() => void) | null = null;
    let done = false;
    stop = subscribeStoreRead(name, args, (value) => {
      if (done || value === undefined) return;
      done = true;
      resolve(value);
      // Called during subscribe when a value is already held: stop once subscribe has returned.
      queueMicrotask(() => stop?.());
    });
  });
}

const whole = <T>(value: T) => value;

/** A live store read in a component: undefined until its first result. */
export function useStoreRead<N extends StoreReadName>(
  name: N,
  args: StoreReadArgs<N>,
): StoreReadValue<N> | undefined {
  return useStoreReadPart(name, args, whole);
}

/**
 * One part of a live store read (a count, a flag, the fields a screen shows): the component re-renders only
 * when that part changes, not with every change to the rows it is taken from. Parts are compared with
 * `equal` (Object.is unless given): a part built anew from each result (an object of some fields) needs an
 * `equal` that compares those fields, and then stays the object it was until one of them changes.
 */
export function useStoreReadPart<N extends StoreReadName, T>(
  name: N,
  args: StoreReadArgs<N>,
  part: (value: StoreReadValue<N> | undefined) => T,
  equal: (a: T, b: T) => boolean = Object.is,
): T {
  const key = keyOf(name, args);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for name and args
  const subscribe = useCallback((onChange: () => void) => subscribeStoreRead(name, args, onChange), [key]);
  // The last result and its part: React asks for the snapshot more than once per result, and each ask
  // must answer the same object while the result is unchanged.
  const last = useRef<{ value: unknown; take: typeof part; part: T } | null>(null);
  return useSyncExternalStore(subscribe, () => {
    const value = watches.get(key)?.value;
    const held = last.current;
    if (held && held.value === value && held.take === part) return held.part;
    const next = part(value as StoreReadValue<N> | undefined);
    const kept = held && equal(held.part, next) ? held.part : next;
    last.current = { value, take: part, part: kept };
    return kept;
  });
}

/** Two objects with the same own fields, each the same value (Object.is): a part's usual `equal`. */
export function sameFields<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (k) =>
      Object.hasOwn(b, k) && Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** Rows of one record kind under a channel or workspace, live. */
export function useRecords<K extends RecordKind>(
  kind: K,
  filter: { scope: string } | { institutionId: string },
): RecordKinds[K][] | undefined {
  return useStoreRead('records', { kind, ...filter }) as RecordKinds[K][] | undefined;
}
