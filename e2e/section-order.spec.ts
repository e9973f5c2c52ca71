// Issue 15 item 8 (decision 0055): sidebar sections are put in a new order by dragging a header, by
// Alt+Shift+↑/↓ on a focused header (announced, focus kept) and by the header menu, offline too. The order
// reaches the server, survives a reload and shows on a second browser of the same person.
import AxeBuilder from '@axe-core/playwright';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const server = specServer();

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Workspace' });

/** The section names in the order the sidebar shows them. */
async function shownOrder(page: Page): Promise<string[]> {
  return (await sidebar(page).locator('section[data-section-id] h2').allTextContents()).map((t) => t.trim());
}

/** A section's header button (it toggles the section and takes Alt+Shift+↑/↓). */
function header(page: Page, name: string) {
  return sidebar(page).getByRole('region', { name }).getByRole('button', { name, exact: true });
}

async function serverOrder(workspaceId: string, token: string): Promise<string[]> {
  const res = await server.api<{ data: { name: string; position: number }[] }>(
    'GET',
    `/api/institutions/${workspaceId}/channels/sections`,
    token,
  );
  return [...res.data].sort((a, b) => a.position - b.position).map((s) => s.name);
}

test('sections move by drag, keyboard and menu, offline too, and keep their order everywhere', async ({
  browser,
}) => {
  test.slow(); // several browsers or many steps: three times the default limit
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Northwind Ops');
  const ada = await server.signInApi('ada@example.com');
  for (const name of ['Projects', 'Clients'])
    await server.api('POST', `/api/institutions/${workspaceId}/channels/sections`, ada.token, { name });
  await page.reload();
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Projects', 'Clients']);

  // Drag the Clients header onto the top edge of Projects: it lands above it.
  // By hand (not dragTo) so the line showing where it will land can be photographed mid-drag.
  await header(page, 'Clients').hover();
  await page.mouse.down();
  const target = await header(page, 'Projects').boundingBox();
  if (!target) throw new Error('no Projects header');
  await page.mouse.move(target.x + 30, target.y + 6, { steps: 4 });
  await page.mouse.move(target.x + 30, target.y + 2, { steps: 2 });
  await shot(page, `${ARTIFACTS}/section-order-dragging-desktop.png`);
  await page.mouse.up();
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Clients', 'Projects']);
  // And Channels dragged onto the lower half of the last header goes last.
  await header(page, 'Channels').dragTo(header(page, 'Projects'), { targetPosition: { x: 30, y: 24 } });
  await expect.poll(() => shownOrder(page)).toEqual(['Clients', 'Projects', 'Channels']);

  // The keyboard: Alt+Shift+↑ on the focused header moves it, keeps focus on it and says so.
  await header(page, 'Channels').focus();
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await expect.poll(() => shownOrder(page)).toEqual(['Clients', 'Channels', 'Projects']);
  await expect(header(page, 'Channels')).toBeFocused();
  await expect(sidebar(page).getByText('Channels moved to 2 of 3')).toBeAttached();
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Clients', 'Projects']);
  await expect(header(page, 'Channels')).toBeFocused();
  // At the top it stays; it did not open another conversation either (Alt+↑ alone does that).
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Clients', 'Projects']);
  // Pressed twice before the sidebar has drawn the first move (as a held key repeats), it moves twice.
  await header(page, 'Projects').focus();
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await expect.poll(() => shownOrder(page)).toEqual(['Projects', 'Channels', 'Clients']);
  await expect(sidebar(page).getByText('Projects moved to 1 of 3')).toBeAttached();
  await page.keyboard.press('Alt+Shift+ArrowDown');
  await page.keyboard.press('Alt+Shift+ArrowDown');
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Clients', 'Projects']);
  await expect(header(page, 'Projects')).toBeFocused();

  // The header menu: Move section up / down, the first one's "up" is unavailable.
  await sidebar(page).getByRole('button', { name: 'Projects section options' }).click();
  await page.getByRole('menuitem', { name: 'Move section up' }).click();
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Projects', 'Clients']);
  await sidebar(page).getByRole('button', { name: 'Channels section options' }).click();
  await expect(page.getByRole('menuitem', { name: 'Move section up' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await shot(page, `${ARTIFACTS}/section-order-menu-desktop.png`);
  await page.keyboard.press('Escape');

  await expect.poll(() => serverOrder(workspaceId, ada.token)).toEqual(['Channels', 'Projects', 'Clients']);

  // axe on the sidebar with the moved sections.
  const axe = await new AxeBuilder({ page }).include('nav[aria-label="Workspace"]').analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  // Offline: the move shows at once and reaches the server once it is back.
  await server.stop();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible({
    timeout: 45_000,
  });
  await header(page, 'Clients').focus();
  await page.keyboard.press('Alt+Shift+ArrowUp');
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Clients', 'Projects']);
  await server.start();
  await expect
    .poll(() => serverOrder(workspaceId, ada.token), { timeout: 30_000 })
    .toEqual(['Channels', 'Clients', 'Projects']);

  await page.reload();
  await expect.poll(() => shownOrder(page)).toEqual(['Channels', 'Clients', 'Projects']);
  await shot(page, `${ARTIFACTS}/section-order-desktop.png`);
  await page.emulateMedia({ colorScheme: 'dark' });
  // Buttons ease into the new colours: wait so the shot is not taken halfway.
  await page.waitForTimeout(400);
  await shot(page, `${ARTIFACTS}/section-order-dark-desktop.png`);

  // A second browser of the same person sees the same order.
  const other = await browser.newContext({ viewport: PHONE });
  const phone = await other.newPage();
  await signInThroughUi(phone, server, 'ada@example.com');
  await phone.goto(`${server.url}/client/${workspaceId}`);
  await expect.poll(() => shownOrder(phone)).toEqual(['Channels', 'Clients', 'Projects']);
  await shot(phone, `${ARTIFACTS}/section-order-phone.png`);
  await phone.emulateMedia({ colorScheme: 'dark' });
  // Buttons ease into the new colours: wait so the shot is not taken halfway.
  await phone.waitForTimeout(400);
  await shot(phone, `${ARTIFACTS}/section-order-dark-phone.png`);
  await other.close();
  await context.close();
});
