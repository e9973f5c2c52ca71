// This device's copy of Lantern's data, below RxDB: what "Reset local data" deletes when the store
// cannot open (decision 0043), and how many unsent changes that would lose. Plain IndexedDB, because the
// store's own code is what failed.
import { collectionSchemas } from '../../schemas/collections.ts';
import { DEFAULT_DATABASE_NAME } from '../store/database-name.ts';

/** RxDB's Dexie storage keeps each collection in its own IndexedDB database (rxdb/plugins/storage-dexie). */
const RXDB_PREFIX = `rxdb-dexie-${DEFAULT_DATABASE_NAME}--`;
/** Files chosen for upload and not sent yet (src/store/file-blobs.ts). */
const FILE_BLOBS = 'lantern-files';
const OUTBOX = `${RXDB_PREFIX}${collectionSchemas.outbox.version}--outbox`;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The names of Lantern's databases on this device. */
async function lanternDatabases(): Promise<string[]> {
  const listed = await indexedDB.databases?.().catch(() => undefined);
  if (listed) {
    return listed
      .map((d) => d.name ?? '')
      .filter((name) => name.startsWith(RXDB_PREFIX) || name === FILE_BLOBS);
  }
  // Without databases(): the names this build would use.
  return [
    `${RXDB_PREFIX}0--_rxdb_internal`,
    ...Object.entries(collectionSchemas).map(([name, schema]) => `${RXDB_PREFIX}${schema.version}--${name}`),
    FILE_BLOBS,
  ];
}

/**
 * Queued changes not yet sent (messages, edits, reactions...), or null when that cannot be told. Opens the
 * outbox's database only when it exists, so counting never creates one.
 */
export async function countUnsent(): Promise<number | null> {
  try {
    if (!(await lanternDatabases()).includes(OUTBOX)) return 0;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(OUTBOX);
      // Not there after all (deleted in between): nothing to count, and nothing created.
      open.onupgradeneeded = () => open.transaction?.abort();
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      if (!db.objectStoreNames.contains('docs')) return 0;
      const rows = await request(db.transaction('docs').objectStore('docs').getAll());
      return (rows as { _deleted?: boolean }[]).filter((row) => !row._deleted).length;
    } finally {
      db.close();
    }
  } catch (error) {
    console.warn('Unsent changes could not be counted', error);
    return null;
  }
}

export type ResetOutcome = 'done' | 'blocked';

/**
 * Deletes every Lantern database and this origin's stored keys. 'blocked': another tab still holds a
 * database open; its deletion finishes once that tab closes.
 */
export async function resetLocalData(): Promise<ResetOutcome> {
  const names = await lanternDatabases();
  const outcomes = await Promise.all(
    names.map(
      (name) =>
        new Promise<ResetOutcome>((resolve, reject) => {
          const req = indexedDB.deleteDatabase(name);
          req.onsuccess = () => resolve('done');
          req.onerror = () => reject(req.error);
          req.onblocked = () => resolve('blocked');
        }),
    ),
  );
  localStorage.clear();
  sessionStorage.clear();
  return outcomes.includes('blocked') ? 'blocked' : 'done';
}
