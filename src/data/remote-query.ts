// Server-only admin data (an agent's settings, knowledge sources, MCP connections, usage) held in memory
// for the tab, one entry per key. It is not put in the local store on purpose: it is only useful online,
// and connection settings and usage figures have no business outliving the session in IndexedDB.
// Hooks subscribe to a key and read its snapshot; actions call `invalidateRemote(prefix)` after a change,
// so every screen showing that data refetches. Screens still never fetch (decision 0001).
import { useEffect, useSyncExternalStore } from 'react';
import { ApiError } from '../store/http.ts';
import { subscribeStoreRead } from './store-reads.ts';

export interface RemoteState<T> {
  /** The last answer; kept while a refetch runs or after a refetch fails. */
  data: T | undefined;
  /** The server's message (or a network message) of the last failure, null after a success. */
  error: string | null;
  /** HTTP status of the last failure (404: the route or the item does not exist), null otherwise. */
  status: number | null;
  loading: boolean;
}

interface Entry {
  state: RemoteState<unknown>;
  load: () => Promise<unknown>;
  listeners: Set<() => void>;
  inflight: Promise<void> | null;
}

const IDLE: RemoteState<never> = { data: undefined, error: null, status: null, loading: false };
const entries = new Map<string, Entry>();

let watchingSession = false;

/** What one person loaded is never shown to the next one who signs in on this tab. */
function forgetOnSessionChange(): void {
  if (watchingSession) return;
  watchingSession = true;
  let token: string | null | undefined;
  subscribeStoreRead('session', {}, (session) => {
    if (session === undefined) return;
    const next = session?.token ?? null;
    if (token !== undefined && next !== token) entries.clear();
    token = next;
  });
}

function entryFor(key: string, load: () => Promise<unknown>): Entry {
  forgetOnSessionChange();
  let entry = entries.get(key);
  if (!entry) {
    entry = { state: { ...IDLE, loading: true }, load, listeners: new Set(), inflight: null };
    entries.set(key, entry);
  }
  // The latest loader wins (it closes over the caller's current arguments).
  entry.load = load;
  return entry;
}

function publish(entry: Entry, state: RemoteState<unknown>) {
  entry.state = state;
  for (const listener of entry.listeners) listener();
}

function refetch(entry: Entry): Promise<void> {
  if (entry.inflight) return entry.inflight;
  if (!entry.state.loading) publish(entry, { ...entry.state, loading: true });
  entry.inflight = entry
    .load()
    .then(
      (data) => publish(entry, { data, error: null, status: null, loading: false }),
      (error: unknown) =>
        publish(entry, {
          data: entry.state.data,
          error: failureMessage(error),
          status: error instanceof ApiError ? error.status : null,
          loading: false,
        }),
    )
    .finally(() => {
      entry.inflight = null;
    });
  return entry.inflight;
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'Network error. Please check your connection.';
  return error instanceof Error && error.message ? error.message : 'An error occurred';
}

/**
 * Refetches every watched key that starts with `prefix`; keys nobody watches are dropped, so the next
 * screen that needs them loads them fresh.
 */
export async function invalidateRemote(prefix: string): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const [key, entry] of entries) {
    if (!key.startsWith(prefix)) continue;
    if (entry.listeners.size === 0) entries.delete(key);
    else pending.push(refetch(entry));
  }
  await Promise.all(pending);
}

/** Lays a known answer over a key (after a change whose response already says the new state). */
export function setRemote<T>(key: string, update: (current: T | undefined) => T | undefined): void {
  const entry = entries.get(key);
  if (!entry) return;
  publish(entry, { ...entry.state, data: update(entry.state.data as T | undefined) });
}

/**
 * The state of `key`, loaded when the first screen subscribes and again whenever one mounts (the admin
 * may have changed it in another tab). `pollMs(data)` asks for a refetch after that many ms (null: stop),
 * e.g. while a knowledge source is still processing. A null key is idle (nothing to load yet).
 */
export function useRemoteQuery<T>(
  key: string | null,
  load: () => Promise<T>,
  pollMs?: (data: T) => number | null,
): RemoteState<T> {
  const entry = key ? entryFor(key, load) : null;
  const state = useSyncExternalStore(
    (listener) => {
      if (!entry) return () => {};
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
    () => (entry ? entry.state : IDLE),
    () => IDLE,
  ) as RemoteState<T>;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names the entry; load is read from it
  useEffect(() => {
    if (entry) void refetch(entry);
  }, [key]);

  const delay = state.data !== undefined && pollMs ? pollMs(state.data) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer re-arms the timer
  useEffect(() => {
    if (!entry || delay === null) return;
    const timer = setTimeout(() => void refetch(entry), delay);
    return () => clearTimeout(timer);
  }, [key, delay, state.data]);

  return state;
}
