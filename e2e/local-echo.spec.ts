// Local echo (docs/sending-messages.md): Enter shows the pending row at once, from memory. When the
// device's store then refuses the write (IndexedDB out of space, injected into the browser's own
// IndexedDB for messages holding one text), the row goes, the words come back to the composer with an
// error, and nothing is sent; the next Enter, with the store writable again, sends it exactly once.
import { expect, test } from '@playwright/test';
import { LanternServer } from './support/server.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  signInThroughUi,
} from './support/ui.ts';

let server: LanternServer;

test.beforeAll(async () => {
  server = await LanternServer.create();
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
});

const TEXT = 'Numbers for the quarterly review';

test('a send the device cannot store gives the words back, and the next one is delivered once', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'ada@example.com');
  await createWorkspaceThroughUi(page, 'Acme Field Team');
  await openChannelFromSidebar(page, 'general');
  const box = composer(page, '#general');
  await expect(box).toBeEditable();

  // The browser's store refuses any message row carrying TEXT, as a full disk would.
  await page.evaluate((text) => {
    const refuse = (original: typeof IDBObjectStore.prototype.put) =>
      function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        const full = (window as unknown as { __diskFull?: boolean }).__diskFull;
        if (full && this.transaction.db.name.endsWith('--messages') && JSON.stringify(value).includes(text))
          throw new DOMException('The disk is full', 'QuotaExceededError');
        return original.call(this, value, key);
      };
    IDBObjectStore.prototype.put = refuse(IDBObjectStore.prototype.put);
    IDBObjectStore.prototype.add = refuse(IDBObjectStore.prototype.add);
    (window as unknown as { __diskFull?: boolean }).__diskFull = true;
  }, TEXT);

  await box.fill(TEXT);
  await box.press('Enter');
  await expect(page.getByText('An error occurred')).toBeVisible();
  await expect(box).toHaveText(TEXT);
  await expect(messageList(page).filter({ hasText: TEXT })).toHaveCount(0);

  await page.evaluate(() => {
    (window as unknown as { __diskFull?: boolean }).__diskFull = false;
  });
  await box.press('Enter');
  await expect(box).toHaveText('');
  const row = messageList(page).filter({ hasText: TEXT });
  await expect(row).toHaveAttribute('data-status', 'confirmed');
  await expect(row).toHaveCount(1);

  // Delivered once: the server holds it once, and a reload shows one row.
  await page.reload();
  await expect(messageList(page).filter({ hasText: TEXT })).toHaveCount(1);
  await expect(messageList(page).filter({ hasText: TEXT })).toHaveAttribute('data-status', 'confirmed');
});
