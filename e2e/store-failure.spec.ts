// A local store that cannot open (here: a database of a newer, unknown shape already on the device) shows
// the error page with "Reset local data" instead of an endless spinner; with unsent messages queued it
// says how many will be lost and asks again; the reset deletes this device's data and the app starts clean.
import { collectionSchemas } from '../schemas/collections.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, type Page, test } from './support/test.ts';

/** The outbox's IndexedDB database under RxDB's Dexie storage, named with the collection's schema version. */
const OUTBOX_DB = `rxdb-dexie-lantern--${collectionSchemas.outbox.version}--outbox`;

const server = specServer();

/**
 * On this origin, before the app runs: a signed-in person's device (the note the sign-in page reads) whose
 * RxDB database is at a version this build cannot open, with `unsent` rows queued in the outbox.
 */
async function breakTheStore(page: Page, unsent: number): Promise<void> {
  await page.goto(`${server.url}/healthz`);
  await page.evaluate(
    async ([count, outboxName]) => {
      localStorage.setItem('lantern-signed-in', '1');
      const open = (name: string, version: number, upgrade: (db: IDBDatabase) => void) =>
        new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open(name, version);
          req.onupgradeneeded = () => upgrade(req.result);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
      const internal = await open('rxdb-dexie-lantern--0--_rxdb_internal', 999_999, (db) =>
        // Its documents keyed by another field: Dexie cannot change a table's primary key.
        db.createObjectStore('docs', { keyPath: 'keyedOtherwise' }),
      );
      internal.close();
      if (count === 0) return;
      const outbox = await open(outboxName, 1, (db) => db.createObjectStore('docs'));
      const tx = outbox.transaction('docs', 'readwrite');
      for (let i = 0; i < count; i++)
        tx.objectStore('docs').put({ key: `post:${i}`, _deleted: false }, `post:${i}`);
      tx.objectStore('docs').put({ key: 'post:gone', _deleted: true }, 'post:gone');
      await new Promise((resolve) => {
        tx.oncomplete = resolve;
      });
      outbox.close();
    },
    [unsent, OUTBOX_DB] as const,
  );
}

/** The rows in the outbox's database, read below RxDB (null: no such database or table). */
const outboxRows = (page: Page) =>
  page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    try {
      if (!db.objectStoreNames.contains('docs')) return null;
      const req = db.transaction('docs').objectStore('docs').count();
      return await new Promise<number>((resolve) => {
        req.onsuccess = () => resolve(req.result);
      });
    } finally {
      db.close();
    }
  }, OUTBOX_DB);

test('warns about unsent messages, then resets and starts clean', async ({ page }) => {
  await breakTheStore(page, 2);
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible();
  await expect(
    page.getByText('Lantern could not open its data on this device.', { exact: false }),
  ).toBeVisible();
  await shot(page, 'test-results/store-failure.png');

  await page.getByRole('button', { name: 'Reset local data' }).click();
  const warning = page.getByRole('alert').filter({ hasText: 'unsent' });
  await expect(warning).toHaveText(/2 unsent messages on this device will be lost\./);
  await shot(page, 'test-results/store-failure-warning.png');
  // Cancel keeps everything.
  await warning.getByRole('button', { name: 'Cancel' }).click();
  expect(await outboxRows(page)).toBe(3);

  await page.getByRole('button', { name: 'Reset local data' }).click();
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Reset anyway' }).click();
  await reloaded;
  // A clean device: the app opens its store and, signed out (the reset forgot the session), goes to sign-in.
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByLabel('E-mail')).toBeVisible();
  // The store the app opened afresh holds none of the rows that were queued.
  expect(await outboxRows(page)).toBe(0);
});

test('resets without asking again when nothing is waiting to be sent', async ({ page }) => {
  await breakTheStore(page, 0);
  await page.goto(`${server.url}/client/anything/drafts`);
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Reset local data' }).click();
  await reloaded;
  await expect(page).toHaveURL(/\/signin/);
});
