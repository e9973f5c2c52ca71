// A server list keeps what the store wrote after the list was asked for (its `fetchedAt`): an action's
// result, a live event, a newer list. But a row written since by an *older* list is not newer: a refresh
// asked for after a change must not be skipped because a slow refresh asked for before the change landed
// while it was on its way (a removed workspace picture came back that way). So each context remembers,
// per row, the write time a list gave it and the list's own time, and runs a collection's list writes
// one at a time (so one list's check and writes never straddle another's). Another context's list writes
// still count as newer (its times are not known here); the refresh the server asks for after a change
// follows.
interface ListWrite {
  lwt: number;
  asOf: number;
}

const writes = new WeakMap<object, Map<string, ListWrite>>();
const queues = new WeakMap<object, Promise<unknown>>();

/** Runs `write` after this context's other list writes into `collection` (those that go through here). */
export function inListOrder<T>(collection: object, write: () => Promise<T>): Promise<T> {
  const run = (queues.get(collection) ?? Promise.resolve()).then(write, write);
  queues.set(
    collection,
    run.catch(() => undefined),
  );
  return run;
}

interface StoredVersion {
  id: string;
  _meta: { lwt: number };
}

/** Records rows a list fetched at `asOf` has just written (as the store returned them). */
export function noteListWrites(collection: object, written: readonly StoredVersion[], asOf: number): void {
  let rows = writes.get(collection);
  if (!rows) {
    rows = new Map();
    writes.set(collection, rows);
  }
  for (const row of written) rows.set(row.id, { lwt: row._meta.lwt, asOf });
}

/**
 * Whether a stored row is newer than a list fetched at `fetchedAt`: written at or after it, and not by a
 * list of this context asked for before it.
 */
export function writtenSince(collection: object, stored: StoredVersion, fetchedAt: number): boolean {
  if (stored._meta.lwt < fetchedAt) return false;
  const byList = writes.get(collection)?.get(stored.id);
  return !(byList && byList.lwt === stored._meta.lwt && byList.asOf < fetchedAt);
}
