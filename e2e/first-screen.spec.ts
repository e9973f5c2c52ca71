// A reload of a channel paints what this device last showed of it before the app's script has run: the
// picture kept on the device (src/first-screen/) stands in, inert and hidden from assistive technology,
// until the app paints the channel itself and takes its place. Signing out deletes the pictures.
import { expect, type Page, type Route, test } from '@playwright/test';
import { shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import {
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';

// The service worker would serve the app's script from its cache, out of the test's reach: this test
// holds the script back on the network instead.
test.use({ serviceWorkers: 'block' });

let server: LanternServer;

test.beforeAll(async () => {
  server = await LanternServer.create();
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
});

/** Pictures kept on this device (beside the store, read by the boot script). */
function pictureCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('lantern.firstScreens');
    return raw ? (JSON.parse(raw) as unknown[]).length : 0;
  });
}

test('a reloaded channel shows its last messages before the app has loaded, then the app takes over', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'noor@example.com');
  await createWorkspaceThroughUi(page, 'Harbour');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Tide tables are up');
  await sendThroughUi(page, '#general', 'Boats out at six');
  await expect(messageList(page).filter({ hasText: 'Boats out at six' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
  // The picture is taken once the list has been still for a moment.
  await expect.poll(() => pictureCount(page), { timeout: 45_000 }).toBe(1);

  // Reload with the app's main script held back: only the boot script runs.
  const held: Route[] = [];
  await page.route(/\/assets\/index-[^/]*\.js$/, (route) => {
    held.push(route);
  });
  await page.reload({ waitUntil: 'commit' });
  const picture = page.locator('#first-screen');
  await expect(picture.locator('article').filter({ hasText: 'Boats out at six' })).toBeVisible();
  await expect(picture.locator('article').filter({ hasText: 'Tide tables are up' })).toBeVisible();
  await expect(picture).toHaveAttribute('aria-hidden', 'true');
  expect(await picture.evaluate((el) => (el as HTMLElement).inert)).toBe(true);
  // Nothing of the app yet: no live rows, no textbox a person could type into and lose.
  await expect(messageList(page)).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await shot(page, `${ARTIFACTS}/first-screen-picture.png`);

  // The app loads: it paints the channel and the picture goes.
  for (const route of held) await route.continue();
  await page.unroute(/\/assets\/index-[^/]*\.js$/);
  await expect(messageList(page).filter({ hasText: 'Boats out at six' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
  await expect(picture).toHaveCount(0);
  await sendThroughUi(page, '#general', 'And back at eight');
  await expect(messageList(page).filter({ hasText: 'And back at eight' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );

  // Signing out deletes what this device kept of the person's channels.
  await page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('button', { name: /Harbour/ })
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expect.poll(() => pictureCount(page)).toBe(0);
});

test('a picture is never shown over another screen', async ({ page }) => {
  await signInThroughUi(page, server, 'ravi@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Orchard');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Apples ripen in autumn');
  await expect.poll(() => pictureCount(page), { timeout: 45_000 }).toBe(1);

  await page.goto(`${server.url}/client/${workspaceId}/directory`);
  await expect(page.getByRole('heading', { name: 'Directory' })).toBeVisible();
  await expect(page.locator('#first-screen')).toHaveCount(0);
  await expect(page.getByText('Apples ripen in autumn')).toHaveCount(0);

  // Back on the channel: the app's rows replace the picture, one copy of each message.
  await page.goBack();
  await expect(messageList(page).filter({ hasText: 'Apples ripen in autumn' })).toHaveCount(1);
  await expect(page.locator('#first-screen')).toHaveCount(0);
  await expect(page.getByText('Apples ripen in autumn')).toHaveCount(1);
});
