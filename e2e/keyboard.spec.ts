// Issue 15 item 5, keyboard first: the quick switcher (Ctrl+K, from the composer too), Alt+↑/↓ through the
// sidebar, the shortcuts dialog on "?", a skip button to the composer as a channel page's first tab stop,
// and the sidebar splitter.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate, createChannelApi } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const SHOTS = 'test-results/keyboard';
const server = specServer();

const sidebarNames = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Workspace' })
    .locator('a[href*="/channel/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('aria-label') ?? a.textContent ?? ''));

test('a person moves around the workspace without the mouse', async ({ page }) => {
  await signInThroughUi(page, server, 'noor@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Keyhaven');
  const noor = await server.signInApi('noor@example.com');
  await createChannelApi(server, workspaceId, noor.token, 'harbour-logistics');
  await createChannelApi(server, workspaceId, noor.token, 'weather');
  await addTeammate(server, workspaceId, noor.token, 'pat@example.com', 'Pat Quinn');
  await page.reload();
  await openChannelFromSidebar(page, 'general');

  // Ctrl+K from the composer: the switcher, not the link form; a few letters and Enter open the channel.
  await composer(page, '#general').click();
  await page.keyboard.press('Control+k');
  const switcher = page.getByRole('dialog', { name: 'Jump to a conversation' });
  await expect(switcher.getByRole('combobox', { name: 'Channel or person' })).toBeFocused();
  await expect(switcher.getByRole('listbox', { name: 'Recent' })).toBeVisible();
  await page.keyboard.type('logis');
  await expect(switcher.getByRole('option').first()).toContainText('harbour-logistics');
  await shot(page, `${SHOTS}/quick-switcher-desktop.png`);
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('#harbour-logistics - Lantern');
  await expect(switcher).toHaveCount(0);

  // A person: Enter opens a direct message with them.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('pat');
  await expect(switcher.getByRole('option', { selected: true })).toContainText('Pat Quinn');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Message Pat Quinn' })).toBeVisible();

  // Empty, the switcher lists what was opened lately, newest first.
  await page.keyboard.press('Control+k');
  await expect(switcher.getByRole('option').first()).toContainText('Pat Quinn');
  await expect(switcher.getByRole('option').nth(1)).toContainText('harbour-logistics');
  await page.keyboard.press('Escape');
  await expect(switcher).toHaveCount(0);

  // Alt+↓ and Alt+↑ walk the sidebar in the order it shows.
  await openChannelFromSidebar(page, 'general');
  const names = await sidebarNames(page);
  const at = names.findIndex((n) => n.startsWith('general'));
  const next = names[(at + 1) % names.length] ?? '';
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page).toHaveTitle(new RegExp(`${next.split(',')[0]}`));
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page).toHaveTitle('#general - Lantern');

  // "?" away from a text field lists the shortcuts.
  await page.getByRole('heading', { name: 'general', exact: true }).click();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Jump to a channel or person');
  await shot(page, `${SHOTS}/shortcuts-desktop.png`);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // The first Tab of a channel page offers the composer.
  await page.reload();
  await expect(composer(page, '#general')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('button', { name: 'Skip to the composer' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(composer(page, '#general')).toBeFocused();

  // The sidebar splitter (spec §9): 10 percent a key press, Shift to the end, kept across a reload; a drag
  // grabs it a few pixels off its line (the fine pointer's hit margin).
  const splitter = page.getByRole('separator', { name: 'Resize sidebar' });
  const sidebarWidth = async () => (await page.locator('#workspace-sidebar').boundingBox())?.width ?? 0;
  await expect(splitter).toHaveAttribute('aria-valuenow', '20');
  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', '30');
  expect(await sidebarWidth()).toBeCloseTo(1280 * 0.3, 0);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', '40');
  await shot(page, `${SHOTS}/sidebar-wide-desktop.png`);
  await page.reload();
  await expect(splitter).toHaveAttribute('aria-valuenow', '40');
  const line = await splitter.boundingBox();
  if (!line) throw new Error('no splitter');
  await page.mouse.move(line.x + 4, line.y + line.height / 2);
  await page.mouse.down();
  await page.mouse.move(320, line.y + line.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(splitter).toHaveAttribute('aria-valuenow', '25');
  expect(await sidebarWidth()).toBeCloseTo(320, 0);
  // A change made just before the page is left is kept: the save waits 100 ms, a reload does not.
  await splitter.press('Home');
  await page.reload();
  await expect(splitter).toHaveAttribute('aria-valuenow', '15');

  // One tab stop per message: ↑ and ↓ between messages, → into its actions (not tab stops themselves),
  // ← and → along them, Escape back to the message, and Enter on Reply replies.
  await sendThroughUi(page, '#general', 'First note');
  await sendThroughUi(page, '#general', 'Second note');
  const first = messageList(page).filter({ hasText: 'First note' });
  const second = messageList(page).filter({ hasText: 'Second note' });
  // A message still sending offers only its "…" menu: wait for both to be stored before walking the actions.
  await expect(first).toHaveAttribute('data-status', 'confirmed');
  await expect(second).toHaveAttribute('data-status', 'confirmed');
  await second.focus();
  await page.keyboard.press('ArrowUp');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const actions = first.getByRole('toolbar', { name: 'Message actions' });
  await expect(actions.getByRole('button').first()).toBeFocused();
  await shot(page, `${SHOTS}/message-actions-keyboard-desktop.png`);
  await page.keyboard.press('ArrowLeft');
  await expect(actions.getByRole('button', { name: 'More message actions' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(second).toBeFocused();
  // Tab leaves the message: its actions are not tab stops.
  await page.keyboard.press('Tab');
  expect(await second.evaluate((row) => row.contains(document.activeElement))).toBe(false);
  await first.focus();
  await page.keyboard.press('ArrowRight');
  const reply = actions.getByRole('button', { name: 'Reply' });
  for (let step = 0; step < 8 && !(await reply.evaluate((el) => el === document.activeElement)); step++)
    await page.keyboard.press('ArrowRight');
  await expect(reply).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Replying to')).toBeVisible();
});

test('on a slow phone, the skip button pressed while the channel is still starting brings the caret to the composer', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'iris@example.com');
  await createWorkspaceThroughUi(page, 'Slowmoor');
  await openChannelFromSidebar(page, 'general');
  await expect(composer(page, '#general')).toBeVisible();
  // A 6× slower CPU: the page is usable (the skip button is there) a while before the composer's draft is in.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  await page.reload();
  const skip = page.getByRole('button', { name: 'Skip to the composer' });
  await expect(skip).toBeAttached();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(composer(page, '#general')).toBeFocused();
  await page.keyboard.type('written at once');
  await expect(composer(page, '#general')).toContainText('written at once');
});
