// The dedicated-worker fallback in Chromium with SharedWorker removed (as in browsers without it): two
// tabs of one person. The second tab's worker does not own the socket, yet the tab is online, sends,
// searches on the server, uploads a file and retries a failed message, all through the first tab's
// worker; when the first tab closes, the second takes over.
import { specServer } from './support/spec-server.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

// Small enough that one file is refused by the upload quota (it fails in the composer); raised before the
// retry.
// (A file over FILE_MAX_BYTES is refused in the composer before any upload: composer-limits.spec.ts.)
const env: Record<string, string> = { UPLOAD_BYTES_PER_USER: '2000' };
const server = specServer(env);

const row = (page: Page, text: string) => messageList(page).filter({ hasText: text });
const offlineBanner = (page: Page) => page.getByRole('status').filter({ hasText: 'You are offline.' });

async function expectOnline(page: Page): Promise<void> {
  await expect(page.getByText('Online', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(offlineBanner(page)).toHaveCount(0);
}

test('a second tab without SharedWorker is a full citizen through the first tab’s worker', async ({
  context,
}) => {
  await context.addInitScript(() => {
    Reflect.deleteProperty(globalThis, 'SharedWorker');
  });
  const first = await context.newPage();
  await signInThroughUi(first, server, 'ada@example.com');
  expect(await first.evaluate(() => typeof (globalThis as { SharedWorker?: unknown }).SharedWorker)).toBe(
    'undefined',
  );
  const workspaceId = await createWorkspaceThroughUi(first, 'Harbour');
  await openChannelFromSidebar(first, 'general');
  await expectOnline(first);

  const second = await context.newPage();
  await second.goto(`${server.url}/client/${workspaceId}`);
  await openChannelFromSidebar(second, 'general');
  await expectOnline(second);
  // Past the grace period in which a fresh tab may still be connecting: still no "offline".
  await second.waitForTimeout(4_000);
  await expectOnline(second);

  // Sends.
  await sendThroughUi(second, '#general', 'Hello from the second tab');
  await expect(row(second, 'Hello from the second tab')).toHaveAttribute('data-status', 'confirmed');
  await expect(row(first, 'Hello from the second tab')).toHaveCount(1);

  // Searches on the server (not "Results from this device").
  const search = second.getByRole('searchbox', { name: 'Search messages' });
  await search.fill('second tab');
  await search.press('Enter');
  await expect(second.getByTestId('message-card').first()).toContainText('Hello from the second tab');
  await expect(second.getByText('Results from this device')).toHaveCount(0);
  await second.goBack();
  await expect(composer(second, '#general')).toBeVisible();

  // Uploads a file.
  const box = composer(second, '#general');
  await second.locator('input[type=file]').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Harbour notes'),
  });
  await box.pressSequentially('The notes');
  await box.press('Enter');
  await expect(row(second, 'The notes')).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });
  await expect(row(second, 'The notes').getByText('notes.txt')).toBeVisible();
  await expect(row(first, 'The notes').getByText('notes.txt')).toBeVisible();

  // A file the server refuses fails in the composer and holds the message back; once the server takes
  // it, Retry uploads it and the message goes.
  await second.locator('input[type=file]').setInputFiles({
    name: 'big.txt',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(3_000, 'x'),
  });
  await box.pressSequentially('The big file');
  await expect(second.getByTestId('composer-notice')).toHaveText(
    'big.txt did not upload. Retry or remove it to send.',
    { timeout: 30_000 },
  );
  await box.press('Enter');
  await expect(row(second, 'The big file')).toHaveCount(0);
  env.UPLOAD_BYTES_PER_USER = '100000';
  await server.stop();
  await server.start();
  await expectOnline(second);
  await second.getByRole('list', { name: 'Files to send' }).getByRole('button', { name: 'Retry' }).click();
  await expect(second.getByTestId('composer-notice')).toHaveCount(0);
  await box.press('Enter');
  await expect(row(second, 'The big file')).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });
  await expect(row(first, 'The big file').getByText('big.txt')).toBeVisible();

  // The first tab (the socket's owner) closes: the second takes over and stays online.
  await first.close();
  await expectOnline(second);
  await sendThroughUi(second, '#general', 'After the first tab closed');
  await expect(row(second, 'After the first tab closed')).toHaveAttribute('data-status', 'confirmed', {
    timeout: 45_000,
  });
});
