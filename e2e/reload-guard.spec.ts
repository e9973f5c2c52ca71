// Spec §9 reload guard: a screen's chunk that fails to load (a deploy removed it, the network dropped it)
// reloads the page once; when it fails again within 10 s the error page shows instead of a reload loop.
import { shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { expect, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

// The chunk must come from the network for the block to bite, not from the service worker's precache.
test.use({ serviceWorkers: 'block' });

let server: LanternServer;
test.afterEach(async () => {
  await server?.dispose();
});

test('a chunk that cannot load reloads the page once, then shows the error page', async ({ page }) => {
  server = await LanternServer.create();
  await server.start();
  await signInThroughUi(page, server, 'ines@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Quarry');

  // The settings screen's chunk is gone (as after a deploy that replaced every hashed file).
  let blocked = 0;
  await page.route(/\/assets\/settings-[^/]+\.js$/, (route) => {
    blocked++;
    return route.abort('failed');
  });
  let loads = 0;
  page.on('load', () => loads++);

  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible({ timeout: 30_000 });
  // The first page and exactly one reload; each asked for the chunk once.
  await expect.poll(() => loads).toBe(2);
  expect(blocked).toBe(2);
  const guard = await page.evaluate(() => sessionStorage.getItem('lantern:reload-guard'));
  expect(Number(guard)).toBeGreaterThan(0);
  await shot(page, 'test-results/reload-guard-error.png');

  // Once the chunk is back (and the guard has expired), the screen opens.
  await page.unroute(/\/assets\/settings-[^/]+\.js$/);
  await page.evaluate(() => sessionStorage.removeItem('lantern:reload-guard'));
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
});
