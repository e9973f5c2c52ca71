// What an id-only push (operator setting PUSH_ID_ONLY, decision 0032) says, read from the app's own store:
// the service worker opens the RxDB collections' IndexedDB databases directly (RxDB itself is too heavy
// for the worker to load per push) and reads the message, its author and channel. A message the store has
// not seen yet still gets a notification that says where: "New message in #general".
/// <reference lib="webworker" />
import { collectionSchemas } from '../schemas/collections.ts';
import { plainText } from '../schemas/plain-text.ts';

/** src/store/database.ts DEFAULT_DATABASE_NAME; RxDB's Dexie storage names one database per collection. */
const DATABASE = 'lantern';
const dbName = (collection: keyof typeof collectionSchemas) =>
  `rxdb-dexie-${DATABASE}--${collectionSchemas[collection].version}--${collection}`;
/** How many of the channel's newest stored messages are looked through for the pushed one. */
const NEWEST = 50;
const BODY_CHARS = 200;

export interface NotificationText {
  title: string;
  body: string;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Opens an existing database only: opening a missing one would create it empty under RxDB's feet. */
async function openExisting(name: string): Promise<IDBDatabase | null> {
  const known = await indexedDB.databases?.();
  if (known && !known.some((d) => d.name === name)) return null;
  const req = indexedDB.open(name);
  req.onupgradeneeded = () => req.transaction?.abort();
  try {
    const db = await request(req);
    if (!db.objectStoreNames.contains('docs')) {
      db.close();
      return null;
    }
    return db;
  } catch {
    return null;
  }
}

async function getDoc<T>(collection: keyof typeof collectionSchemas, key: string): Promise<T | null> {
  const db = await openExisting(dbName(collection));
  if (!db) return null;
  try {
    const doc = (await request(db.transaction('docs').objectStore('docs').get(key))) as
      | (T & { _deleted?: string | boolean })
      | undefined;
    return doc && doc._deleted !== '1' && doc._deleted !== true ? doc : null;
  } finally {
    db.close();
  }
}

interface StoredMessage {
  id: string | null;
  memberId: string;
  content: string;
  deletedAt: string | null;
}

/** The pushed message among the channel's newest stored ones (RxDB's [_deleted, channelId, createdSeq] index). */
async function findMessage(channelId: string, messageId: string): Promise<StoredMessage | null> {
  const db = await openExisting(dbName('messages'));
  if (!db) return null;
  try {
    const store = db.transaction('docs').objectStore('docs');
    const indexName = [...store.indexNames].find((n) => {
      const path = store.index(n).keyPath;
      return Array.isArray(path) && path.join() === '_deleted,channelId,createdSeq,genId';
    });
    if (!indexName) return null;
    const range = IDBKeyRange.bound(['0', channelId, -Infinity, ''], ['0', channelId, Infinity, '\uffff']);
    const cursorReq = store.index(indexName).openCursor(range, 'prev');
    return await new Promise<StoredMessage | null>((resolve, reject) => {
      let seen = 0;
      cursorReq.onerror = () => reject(cursorReq.error);
      cursorReq.onsuccess = () => {
        const cursor = cursorReq.result;
        if (!cursor || seen++ >= NEWEST) return resolve(null);
        const doc = cursor.value as StoredMessage;
        if (doc.id === messageId) return resolve(doc);
        cursor.continue();
      };
    });
  } finally {
    db.close();
  }
}

function cut(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > BODY_CHARS ? `${chars.slice(0, BODY_CHARS).join('')}…` : chars.join('');
}

/** Title and body for an id-only push; never empty, whatever the store holds. */
export async function storedNotificationText(
  channelId: string | undefined,
  messageId: string | undefined,
): Promise<NotificationText> {
  const nothing = { title: 'New message in Lantern', body: 'Open Lantern to read it.' };
  if (!channelId) return nothing;
  try {
    const channel = await getDoc<{ name: string; directMessageMembers: string[] | null }>(
      'channels',
      channelId,
    );
    const isDirect = (channel?.directMessageMembers?.length ?? 0) > 0;
    const message = messageId ? await findMessage(channelId, messageId) : null;
    const author = message ? await getDoc<{ name: string }>('members', message.memberId) : null;
    if (message && author && !message.deletedAt) {
      const title = isDirect || !channel ? author.name : `${author.name} in #${channel.name}`;
      return { title, body: cut(plainText(message.content)) || 'Sent an attachment' };
    }
    if (isDirect) return { title: 'New direct message', body: 'Open Lantern to read it.' };
    if (channel) return { title: `New message in #${channel.name}`, body: 'Open Lantern to read it.' };
    return nothing;
  } catch {
    return nothing;
  }
}
