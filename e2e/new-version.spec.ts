// A deploy while the app is open (decision 0043): the server restarts announcing another build; the open
// tab hears it from its socket and from GET /api/version and says "A new version of Lantern is available"
// with Reload, which loads the page again. The server's route rules are followed: a path of ours in the
// app, another site by a full page load (spec §2).
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, openChannelFromSidebar, signInThroughUi } from './support/ui.ts';

const banner = (page: Page) =>
  page
    .getByRole('alert')
    .filter({ hasText: 'A new version of Lantern is available' })
    .filter({ has: page.getByRole('button', { name: 'Reload' }) });

const DIST = path.resolve(import.meta.dirname, '..', 'dist');
/** The build the e2e server serves (vite build wrote it); a deploy announces another. */
const builtId = (JSON.parse(readFileSync(path.join(DIST, 'version.json'), 'utf8')) as { buildId: string })
  .buildId;

/**
 * The next deploy's files: this build with a service worker whose bytes differ (so the browser installs it
 * as a new worker) and which answers `whichBuild` with 'next', so a test can tell who controls the page.
 */
function nextDeploy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lantern-next-build-'));
  cpSync(DIST, dir, { recursive: true });
  // The precompressed copies would still be the old worker's bytes.
  rmSync(path.join(dir, 'sw.js.br'), { force: true });
  rmSync(path.join(dir, 'sw.js.gz'), { force: true });
  appendFileSync(
    path.join(dir, 'sw.js'),
    "\nself.addEventListener('message', (e) => { if (e.data?.type === 'whichBuild') e.ports[0]?.postMessage('next'); });\n",
  );
  return dir;
}

/** Which worker controls the page: 'next' from the next deploy's, 'none' from one that does not answer. */
const controllingBuild = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve('no controller');
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(String(event.data));
        controller.postMessage({ type: 'whichBuild' }, [channel.port2]);
        setTimeout(() => resolve('none'), 1500);
      }),
  );
const NEXT_BUILD = `${builtId}-next`;

test.describe('a new version of Lantern', () => {
  let server: LanternServer;
  test.afterEach(async () => {
    await server?.dispose();
  });

  test('is announced after a deploy, and Reload loads the page again', async ({ page }) => {
    server = await LanternServer.create();
    await server.start();
    await signInThroughUi(page, server, 'noor@example.com');
    await createWorkspaceThroughUi(page, 'Lighthouse');
    await openChannelFromSidebar(page, 'general');
    await expect(page.getByText('Online', { exact: true })).toBeVisible();
    // The served build is this page's own: nothing to offer.
    expect((await (await fetch(`${server.url}/api/version`)).json()) as unknown).toMatchObject({
      buildId: builtId,
    });
    await expect(banner(page)).toHaveCount(0);

    // The deploy: the same data, another build. The socket reconnects and hears the new build id.
    server.configure({ BUILD_ID: NEXT_BUILD });
    await server.stop();
    await server.start();
    await expect(banner(page)).toBeVisible({ timeout: 30_000 });
    await expect(banner(page)).toContainText('Reload to update.');
    await shot(page, 'test-results/new-version-banner.png');

    await page.evaluate(() => {
      (window as Window & { beforeReload?: boolean }).beforeReload = true;
    });
    const reloaded = page.waitForEvent('load');
    await banner(page).getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    expect(await page.evaluate(() => (window as Window & { beforeReload?: boolean }).beforeReload)).toBe(
      undefined,
    );
    await expect(page.getByRole('navigation', { name: 'Workspace' })).toBeVisible();
  });

  test("Reload hands the page to the next build's service worker through the waiting flow", async ({
    page,
  }) => {
    const next = nextDeploy();
    try {
      server = await LanternServer.create();
      await server.start();
      await signInThroughUi(page, server, 'ines@example.com');
      await createWorkspaceThroughUi(page, 'Quay');
      await openChannelFromSidebar(page, 'general');
      await expect.poll(() => controllingBuild(page)).toBe('none');

      // The deploy: new files, a new build id. The open page is told, and fetches the new worker at once,
      // which installs and waits: it does not take over under a page that loads chunks from the old cache.
      server.configure({ CLIENT_DIR: next, BUILD_ID: NEXT_BUILD });
      await server.stop();
      await server.start();
      await expect(banner(page)).toBeVisible({ timeout: 30_000 });
      await expect
        .poll(() =>
          page.evaluate(async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            return registration?.waiting?.state ?? 'nothing waiting';
          }),
        )
        .toBe('installed');
      expect(await controllingBuild(page)).toBe('none');
      await expect(page.getByRole('navigation', { name: 'Workspace' })).toBeVisible();

      // Reload: the waiting worker is asked to take over, and the page loads again under it.
      const reloaded = page.waitForEvent('load');
      await banner(page).getByRole('button', { name: 'Reload' }).click();
      await reloaded;
      await expect(page.getByRole('navigation', { name: 'Workspace' })).toBeVisible();
      expect(await controllingBuild(page)).toBe('next');
      expect(
        await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
      ).toBeNull();
    } finally {
      rmSync(next, { recursive: true, force: true });
    }
  });

  test('is found by polling GET /api/version where there is no socket', async ({ page }) => {
    server = await LanternServer.create({ BUILD_ID: NEXT_BUILD });
    await server.start();
    // Signed out: no socket at all, only GET /api/version tells.
    await page.goto(`${server.url}/account-deletion`);
    await expect(banner(page)).toBeVisible();
  });

  test('the SharedWorker of this build retires when a newer build starts one, and outlives an older', async ({
    page,
  }) => {
    server = await LanternServer.create();
    await server.start();
    await signInThroughUi(page, server, 'olu@example.com');
    await createWorkspaceThroughUi(page, 'Kiln');
    await openChannelFromSidebar(page, 'general');
    await expect(page.getByText('Online', { exact: true })).toBeVisible();

    // An older build's worker says its build: ours answers with its own (so that one retires) and stays.
    const answer = await page.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          const channel = new BroadcastChannel('lantern-build');
          channel.onmessage = (event) => resolve(event.data);
          channel.postMessage({ buildId: 'old-100000' });
        }),
    );
    expect(answer).toEqual({ buildId: builtId });
    await expect(banner(page)).toHaveCount(0);

    // A newer build's worker starts (what a tab of the next deploy does): ours stops owning the network.
    await page.evaluate(() =>
      new BroadcastChannel('lantern-build').postMessage({ buildId: `next-${Date.now().toString(36)}` }),
    );
    await expect(banner(page)).toBeVisible();
    await expect(banner(page)).toContainText('Reload to keep working.');
  });

  test('follows the route rules the server gives for a path', async ({ page }) => {
    server = await LanternServer.create();
    const otherSite = `http://127.0.0.1:${server.port}/healthz`;
    server.configure({
      ROUTE_RULES: JSON.stringify({
        '/account-deletion': { redirect: '/signin?from=rule' },
        '/lti/launch': { redirect: otherSite },
      }),
    });
    await server.start();

    await page.goto(`${server.url}/account-deletion`);
    await expect(page).toHaveURL(/\/signin\?from=rule$/);
    await expect(page.getByLabel('E-mail')).toBeVisible();

    // Another origin (127.0.0.1 is not localhost): a full page load, leaving the app.
    await page.goto(`${server.url}/lti/launch?ltik=abc`);
    await expect(page).toHaveURL(otherSite);
    await expect(page.locator('body')).toContainText('"status":"ok"');
  });
});
