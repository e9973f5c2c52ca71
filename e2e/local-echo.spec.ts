// Local echo (docs/sending-messages.md): Enter shows the pending row at once, from memory. When the
// device's store then refuses the write (IndexedDB out of space, injected into the browser's own
// IndexedDB for messages holding one text), the row goes, the words come back to the composer with an
// error, and nothing is sent; the next Enter, with the store writable again, sends it exactly once.
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

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

test('a composer still waiting for its draft says it is read-only, and takes text once it is not', async ({
  page,
}) => {
  // Every look the channel composer has on this page, as seen after each change to it: a box that
  // cannot take text but does not say so reads as a textbox to type into (and keys typed are lost).
  await page.addInitScript(() => {
    const looks: { label: string | null; editable: string | null; readOnly: string | null }[] = [];
    (window as unknown as { __composerLooks: typeof looks }).__composerLooks = looks;
    new MutationObserver(() => {
      for (const box of document.querySelectorAll('[data-channel-composer]'))
        looks.push({
          label: box.getAttribute('aria-label'),
          editable: box.getAttribute('contenteditable'),
          readOnly: box.getAttribute('aria-readonly'),
        });
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await signInThroughUi(page, server, 'lin@example.com');
  await createWorkspaceThroughUi(page, 'Harbour Works');
  await openChannelFromSidebar(page, 'general');
  // A new channel mounts a composer of its own, which waits for its own draft.
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByLabel('Name').fill('moorings');
  await page.getByRole('button', { name: 'Create channel' }).last().click();
  const box = composer(page, '#moorings');
  await expect(box).toBeEditable();
  await box.fill('Berth 4 is free');
  await box.press('Enter');
  await expect(messageList(page).filter({ hasText: 'Berth 4 is free' })).toHaveCount(1);

  const looks = await page.evaluate(
    () =>
      (
        window as unknown as {
          __composerLooks: { label: string | null; editable: string | null; readOnly: string | null }[];
        }
      ).__composerLooks,
  );
  const waiting = looks.filter((look) => look.editable === 'false');
  expect(waiting.map((look) => look.label)).toContain('Message #moorings');
  expect(waiting.filter((look) => look.readOnly !== 'true')).toEqual([]);
  expect(looks.filter((look) => look.editable === 'true' && look.readOnly === 'true')).toEqual([]);
});
