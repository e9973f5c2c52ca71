// A reload of a channel paints what this device last showed of it before the app's script has run: the
// picture kept on the device (src/first-screen/) stands in, inert and hidden from assistive technology,
// until the app paints the channel itself and takes its place. Signing out deletes the pictures.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { joinedChannelId, postMessageApi } from './support/team.ts';
import { expect, type Page, type Route, test } from './support/test.ts';
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

const server = specServer();

/** Pictures kept on this device (beside the store, read by the boot script), one key each. */
function pictureCount(page: Page): Promise<number> {
  return page.evaluate(
    () => Object.keys(localStorage).filter((key) => key.startsWith('lantern.firstScreen:')).length,
  );
}

/**
 * Reloads with the app's main script held back, so that only the boot script runs (and its picture
 * stays); the returned function lets the app load.
 */
async function reloadWithAppHeld(page: Page): Promise<() => Promise<void>> {
  const appScript = /\/assets\/index-[^/]*\.js$/;
  const held: Route[] = [];
  await page.route(appScript, (route) => {
    held.push(route);
  });
  await page.reload({ waitUntil: 'commit' });
  return async () => {
    for (const route of held) await route.continue();
    await page.unroute(appScript);
  };
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

  const releaseApp = await reloadWithAppHeld(page);
  const picture = page.locator('#first-screen');
  await expect(picture.locator('article').filter({ hasText: 'Boats out at six' })).toBeVisible();
  await expect(picture.locator('article').filter({ hasText: 'Tide tables are up' })).toBeVisible();
  await expect(picture).toHaveAttribute('aria-hidden', 'true');
  expect(await picture.evaluate((el) => (el as HTMLElement).inert)).toBe(true);
  // Nothing of the app yet: no live rows, no textbox a person could type into and lose.
  await expect(messageList(page)).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await shot(page, `${ARTIFACTS}/first-screen-picture.png`);

  // The app loads: it paints the channel and the picture goes, and meanwhile the channel never stands
  // empty. The picture once went with the list's first, unmeasured row, and then with its rows while
  // the virtualised list (react-virtuoso) still held them hidden (it shows them once its scroll to the newest has settled).
  await page.evaluate(() => {
    const rows = () =>
      [...document.querySelectorAll('#first-screen article, article[data-status]')].filter((row) =>
        row.checkVisibility({ visibilityProperty: true }),
      ).length;
    const seen = { fewest: rows() };
    (window as unknown as { __rowsSeen: typeof seen }).__rowsSeen = seen;
    new MutationObserver(() => {
      seen.fewest = Math.min(seen.fewest, rows());
    }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] });
  });
  await releaseApp();
  await expect(messageList(page).filter({ hasText: 'Boats out at six' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
  await expect(picture).toHaveCount(0);
  expect(
    await page.evaluate(() => (window as unknown as { __rowsSeen: { fewest: number } }).__rowsSeen.fewest),
  ).toBeGreaterThan(0);
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

test('each channel keeps a picture of its own, and a reload shows the one of the channel reloaded', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'ines@example.com');
  await createWorkspaceThroughUi(page, 'Quarry');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Granite delivered on Monday');
  await expect.poll(() => pictureCount(page), { timeout: 45_000 }).toBe(1);
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByLabel('Name').fill('random');
  await page.getByRole('button', { name: 'Create channel' }).last().click();
  await expect(page).toHaveTitle('#random - Lantern');
  await sendThroughUi(page, '#random', 'Lunch by the lake');
  await expect.poll(() => pictureCount(page), { timeout: 45_000 }).toBe(2);

  const releaseApp = await reloadWithAppHeld(page);
  const picture = page.locator('#first-screen');
  await expect(picture.locator('article').filter({ hasText: 'Lunch by the lake' })).toBeVisible();
  await expect(picture.getByText('Granite delivered on Monday')).toHaveCount(0);
  await releaseApp();
  await expect(messageList(page).filter({ hasText: 'Lunch by the lake' })).toHaveCount(1);
  await expect(picture).toHaveCount(0);
});

test('a reload shows the picture where the list was scrolled to, not at its newest message', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'oskar@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Foundry');
  const oskar = await server.signInApi('oskar@example.com');
  const generalId = await joinedChannelId(server, workspaceId, oskar.token, 'general');
  for (let i = 1; i <= 40; i++)
    await postMessageApi(server, workspaceId, generalId, oskar.token, `Casting note ${i}`);
  await openChannelFromSidebar(page, 'general');
  await expect(messageList(page).filter({ hasText: 'Casting note 40' })).toBeVisible();
  await expect.poll(() => pictureCount(page), { timeout: 45_000 }).toBe(1);

  // Scrolled up to the middle of the channel: the picture kept before (at the newest rows) is out of
  // date, and the one taken as the page goes must keep the list's position (not its top, which a list
  // drawing only the rows in view leaves blank).
  const scroller = page.locator('#root [data-message-scroller]');
  await scroller.evaluate((el) => el.scrollTo({ top: (el.scrollHeight - el.clientHeight) / 2 }));
  await expect(page.locator('#root').getByText('Casting note 40', { exact: true })).not.toBeInViewport();
  const inView = await scroller.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const notes = [...el.querySelectorAll('p')].filter((p) => {
      const r = p.getBoundingClientRect();
      return /^Casting note \d+$/.test(p.textContent ?? '') && r.top >= box.top && r.bottom <= box.bottom;
    });
    return notes[Math.floor(notes.length / 2)]?.textContent ?? '';
  });
  expect(inView).toMatch(/^Casting note \d+$/);

  const releaseApp = await reloadWithAppHeld(page);
  const picture = page.locator('#first-screen');
  await expect(picture.getByText(inView, { exact: true })).toBeInViewport();
  await expect(picture.getByText('Casting note 40', { exact: true })).not.toBeInViewport();
  await releaseApp();
  await expect(picture).toHaveCount(0);
});
