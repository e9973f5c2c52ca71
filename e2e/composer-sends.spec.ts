// Issue 15 item 2, "a send that cannot succeed is not offered": a file over the server's limit is refused
// in the composer before any upload, naming the limit; a message whose file failed to upload cannot be
// sent until the file is retried or removed; a message longer than the server stores waits until it is
// shortened. (Which "Not sent" offers Retry is tests/store/send-rules.test.ts: the composer now offers no
// send the server would refuse, so only a race with a permission change could show one here.)
import { shootBothThemes } from './support/composer-shots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  signInThroughUi,
} from './support/ui.ts';

// Files up to 2000 bytes; each person may hold 1500 bytes of uploads, so a 1800-byte file passes the
// composer's size check and is then refused by the server: an upload that fails.
const env = { FILE_MAX_BYTES: '2000', UPLOAD_BYTES_PER_USER: '1500' };
const server = specServer(env);

const SHOTS = '/tmp/shots/composer15';

test('a file over the limit is refused before upload; a failed file blocks sending until removed', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'ines@example.com');
  await createWorkspaceThroughUi(page, 'Harbour');
  await openChannelFromSidebar(page, 'general');
  const box = composer(page, '#general');
  const notice = page.getByTestId('composer-notice');
  const files = page.getByRole('list', { name: 'Files to send' });
  const send = page.getByRole('button', { name: 'Send message' });

  // Over the limit: refused at once, with the limit named; nothing uploads.
  await page.locator('input[type=file]').setInputFiles({
    name: 'harbour-plan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.alloc(2001, 'x'),
  });
  await expect(notice).toHaveText(
    'harbour-plan.pdf is larger than 1.95 KB, the largest file this server accepts.',
  );
  // Not even kept for a later upload: the composer holds no file.
  await expect(files).toHaveCount(0);
  await shootBothThemes(page, SHOTS, 'composer-too-large');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);

  // Within the limit but refused by the server: the file fails, and the message waits for it.
  await page.locator('input[type=file]').setInputFiles({
    name: 'manifest.txt',
    mimeType: 'text/plain',
    buffer: Buffer.alloc(1800, 'y'),
  });
  await expect(files.getByText('Upload failed')).toBeVisible({ timeout: 45_000 });
  const reason = 'manifest.txt did not upload. Retry or remove it to send.';
  await expect(notice).toHaveText(reason);
  await box.fill('The manifest');
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await expect(send).toHaveAccessibleDescription(reason);
  await box.press('Enter');
  // aria-disabled, not disabled: it can still be reached and pressed, and says why.
  await send.click({ force: true });
  // Nothing was sent: the words and the file stay, the reason is said again.
  await expect(box).toHaveText('The manifest');
  await expect(messageList(page).filter({ hasText: 'The manifest' })).toHaveCount(0);
  await expect(notice).toHaveText(reason);
  await shootBothThemes(page, SHOTS, 'composer-upload-failed');

  // Removed, the message goes.
  await page.getByRole('button', { name: 'Remove manifest.txt' }).click();
  await expect(notice).toHaveCount(0);
  await expect(send).not.toHaveAttribute('aria-disabled', 'true');
  await box.press('Enter');
  await expect(messageList(page).filter({ hasText: 'The manifest' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
});

test('a message longer than the server stores waits in the composer, saying why', async ({ page }) => {
  await signInThroughUi(page, server, 'tariq@example.com');
  await createWorkspaceThroughUi(page, 'Lighthouse');
  await openChannelFromSidebar(page, 'general');
  const box = composer(page, '#general');
  const notice = page.getByTestId('composer-notice');
  const send = page.getByRole('button', { name: 'Send message' });
  await box.fill(`Too long ${'word '.repeat(9_000)}`);
  await expect(notice).toHaveText(
    /^This message is too long to send: 4\d,\d{3} characters with its formatting, and at most 40,000 fit\./,
  );
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await box.press('Enter');
  await expect(messageList(page).filter({ hasText: 'Too long' })).toHaveCount(0);
  // Shortened, it goes.
  await box.fill('Short enough');
  await expect(notice).toHaveCount(0);
  await box.press('Enter');
  await expect(messageList(page).filter({ hasText: 'Short enough' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
});

test('a file chosen just before Enter goes with the message, not left behind in the composer', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'noor@example.com');
  await createWorkspaceThroughUi(page, 'Quay');
  await openChannelFromSidebar(page, 'general');
  // Adding a file first asks the server for its size limit: holding that answer keeps the file "being
  // added" when Enter is pressed (a slow phone or a busy page does the same).
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/client-config', async (route) => {
    await held;
    await route.continue();
  });
  const box = composer(page, '#general');
  await page.locator('input[type=file]').setInputFiles({
    name: 'agenda.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Agenda for Monday'),
  });
  await box.fill('The agenda');
  await box.press('Enter');
  release();
  const sent = messageList(page).filter({ hasText: 'The agenda' });
  await expect(sent).toHaveAttribute('data-status', 'confirmed');
  await expect(sent.getByText('agenda.txt')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Files to send' })).toHaveCount(0);
  await expect(box).toHaveText('');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the composer says why a file is refused and why a message waits', async ({ page }) => {
    await signInThroughUi(page, server, 'pia@example.com');
    await createWorkspaceThroughUi(page, 'Jetty');
    await page
      .getByRole('link', { name: /^general\b/ })
      .first()
      .click();
    const box = composer(page, '#general');
    await expect(box).toBeVisible();
    const notice = page.getByTestId('composer-notice');
    await page.locator('input[type=file]').setInputFiles({
      name: 'harbour-plan.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.alloc(2001, 'x'),
    });
    await expect(notice).toContainText('larger than 1.95 KB');
    await shootBothThemes(page, SHOTS, 'composer-too-large');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await page.locator('input[type=file]').setInputFiles({
      name: 'manifest.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(1800, 'y'),
    });
    await expect(notice).toHaveText('manifest.txt did not upload. Retry or remove it to send.', {
      timeout: 45_000,
    });
    await box.fill('The manifest');
    await shootBothThemes(page, SHOTS, 'composer-upload-failed');
    await page.getByRole('button', { name: 'Remove manifest.txt' }).click();
    await box.fill(`Too long ${'word '.repeat(9_000)}`);
    await expect(notice).toContainText('This message is too long to send');
    await shootBothThemes(page, SHOTS, 'composer-too-long');
  });
});
