// The bytes of files chosen in a composer, kept in IndexedDB until uploaded (decision 0006). A plain
// IndexedDB database beside the RxDB store: IndexedDB keeps Blobs as they are (RxDB documents are JSON),
// and it costs none of the 13 RxDB collections. Tabs and the worker open the same database.
const DB_NAME = 'lantern-files';
const STORE = 'blobs';

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  if (opening) return opening;
  opening = new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = act(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      }),
  );
}

export function putFileBlob(id: string, blob: Blob): Promise<void> {
  return run('readwrite', (s) => s.put(blob, id)).then(() => undefined);
}

export function getFileBlob(id: string): Promise<Blob | null> {
  return run('readonly', (s) => s.get(id) as IDBRequest<Blob | undefined>).then((b) => b ?? null);
}

export function removeFileBlob(id: string): Promise<void> {
  return run('readwrite', (s) => s.delete(id)).then(() => undefined);
}

/** Sign-out: no one's files stay behind. */
export function clearFileBlobs(): Promise<void> {
  return run('readwrite', (s) => s.clear()).then(() => undefined);
}
