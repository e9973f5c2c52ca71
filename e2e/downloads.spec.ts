// Downloading a message's file (spec §4 toasts, §8, §9): the browser gets the file's own bytes under its
// name; on a slow connection a loading toast names the file until the bytes are in, outliving the 4 s
// every other toast closes after; when the connection fails, it says 'Failed to fetch file', not nothing.
// Signing out says 'You have been logged out'.
import { readFile } from 'node:fs/promises';
import { samplePdf } from './support/sample-files.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import { composer, createWorkspaceThroughUi, openChannelFromSidebar, signInThroughUi } from './support/ui.ts';

const server = specServer();

test('a file downloads with its own bytes, says so while slow, and says why when it cannot', async ({
  page,
  context,
}) => {
  await signInThroughUi(page, server, 'ada@example.com');
  await createWorkspaceThroughUi(page, 'Harbour');
  await openChannelFromSidebar(page, 'general');
  const pdf = samplePdf();
  const box = composer(page, '#general');
  await box.pressSequentially('the plan for the quarter');
  await page
    .locator('input[type=file]')
    .setInputFiles([{ name: 'quarterly-plan.pdf', mimeType: 'application/pdf', buffer: pdf }]);
  await expect(page.getByRole('list', { name: 'Files to send' }).getByRole('listitem')).toHaveCount(1);
  await box.press('Enter');
  const button = page.getByRole('button', { name: 'Download quarterly-plan.pdf' });
  await expect(button).toBeVisible({ timeout: 30_000 });

  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe('quarterly-plan.pdf');
  expect((await readFile(await download.path())).equals(pdf)).toBe(true);

  // A slow connection: the file's bytes take 6 s to start coming.
  await context.route('**/api/files/*/content*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await route.continue();
  });
  const notice = page.locator('[data-sonner-toast]').filter({ hasText: 'Downloading quarterly-plan.pdf…' });
  const slow = page.waitForEvent('download', { timeout: 60_000 });
  await button.click();
  await expect(notice).toBeVisible();
  await page.waitForTimeout(4_500);
  await expect(notice).toBeVisible();
  await shot(page, 'e2e/artifacts/download-slow.png');
  expect((await readFile(await (await slow).path())).equals(pdf)).toBe(true);
  await expect(notice).toBeHidden();
  await context.unroute('**/api/files/*/content*');

  // The connection drops as the bytes are asked for: the failure is told, not swallowed.
  await context.route('**/api/files/*/content*', (route) => route.abort('connectionfailed'));
  await button.click();
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: /^Failed to fetch file/ }),
  ).toBeVisible();
  await context.unroute('**/api/files/*/content*');

  await page
    .getByRole('button', { name: /Harbour/ })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'You have been logged out' }),
  ).toBeVisible();
});
