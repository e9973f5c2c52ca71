// A deploy retires the build a person has open: the server restarts with a minimum protocol above the one
// the served app speaks. The open app says "A new version of Lantern is available" with Reload instead of
// "You are offline", and a build that is already too old says so on the sign-in screen at its first call.
import { PROTOCOL_VERSION } from '../schemas/protocol/version.ts';
import { shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, openChannelFromSidebar, signInThroughUi } from './support/ui.ts';

const RETIRED = { PROTOCOL_MIN_VERSION: String(PROTOCOL_VERSION + 1) };

// The banner, not the e-mail field's error that says the same: the alert that offers Reload.
const updateBanner = (page: Page) =>
  page
    .getByRole('alert')
    .filter({ hasText: 'A new version of Lantern is available' })
    .filter({ has: page.getByRole('button', { name: 'Reload' }) });

test.describe('an app older than the server', () => {
  let server: LanternServer;
  test.afterEach(async () => {
    await server?.dispose();
  });

  test('asks the person to reload after a deploy retires the open build', async ({ page }) => {
    server = await LanternServer.create();
    await server.start();
    await signInThroughUi(page, server, 'ria@example.com');
    await createWorkspaceThroughUi(page, 'Harbour');
    await openChannelFromSidebar(page, 'general');
    await expect(page.getByText('Online', { exact: true })).toBeVisible();
    await expect(updateBanner(page)).toHaveCount(0);

    server.configure(RETIRED);
    await server.stop();
    await server.start();

    const banner = updateBanner(page);
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('You are offline.')).toHaveCount(0);
    await expect(page.getByText('Reload needed', { exact: true })).toBeVisible();
    await shot(page, 'test-results/protocol-version-banner.png');

    // Reload loads the page again; this build is still the old one, so the banner comes back.
    const reloaded = page.waitForEvent('load');
    await banner.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await expect(updateBanner(page)).toBeVisible({ timeout: 30_000 });
  });

  test('says so on the sign-in screen when the build is already too old', async ({ page }) => {
    server = await LanternServer.create(RETIRED);
    await server.start();
    await page.goto(`${server.url}/`);
    await expect(page).toHaveURL(/\/signin/);
    await page.getByLabel('E-mail').fill('ria@example.com');
    await page.getByRole('button', { name: 'Continue with e-mail' }).click();
    await expect(updateBanner(page)).toBeVisible();
    await expect(updateBanner(page).getByRole('button', { name: 'Reload' })).toBeVisible();
  });
});
