// A mouse resting over the message list while messages arrive (decision 0060): each new message scrolls
// the list, and Chromium moves the hover to the row now under the pointer with over/enter events and no
// move. Those rows must not build their actions (it doubled a live message's work on a slow machine);
// moving the mouse shows the actions of the row under it, as before.
import { specServer } from './support/spec-server.ts';
import { addTeammate, joinedChannelId, postMessageApi } from './support/team.ts';
import { expect, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

test('messages arriving under a resting mouse build no actions; moving it shows them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Ops');
  await openChannelFromSidebar(page, 'general');
  const ada = await server.signInApi('ada@example.com');
  const generalId = await joinedChannelId(server, workspaceId, ada.token, 'general');
  const grace = await addTeammate(server, workspaceId, ada.token, 'grace@example.com', 'Grace Hopper');
  const post = (text: string) => postMessageApi(server, workspaceId, generalId, grace.token, text);

  // Enough messages to scroll: the list sticks to its newest row.
  for (let i = 1; i <= 30; i++) await post(`Tide table line ${i}`);
  await expect(messageList(page).filter({ hasText: 'Tide table line 30' })).toBeInViewport();

  // The mouse moves onto a row in the middle of the list and rests there: that row shows its actions.
  const list = page.locator('[data-message-list]');
  const box = await list.boundingBox();
  if (!box) throw new Error('the message list has no box');
  const resting = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const underMouse = () =>
    page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('article')?.getAttribute('data-gen-id') ?? null,
      resting,
    );
  // A row's actions as built, shown or not (they show while the row is hovered or focused).
  const builtActions = (genId: string | null) =>
    page.locator(`article[data-gen-id="${genId}"] [role="toolbar"][aria-label="Message actions"]`);
  await page.mouse.move(resting.x, resting.y - 40);
  await page.mouse.move(resting.x, resting.y);
  const first = await underMouse();
  await expect(builtActions(first)).toBeVisible();

  // Five messages arrive: each scrolls another row under the resting mouse, which Chromium hovers.
  const passedUnder = new Set<string>();
  for (let i = 1; i <= 5; i++) {
    await post(`Harbour note ${i}`);
    await expect(messageList(page).filter({ hasText: `Harbour note ${i}` })).toBeInViewport();
    // Chromium moves the hover a moment after the scroll.
    await page.waitForTimeout(200);
    const row = await underMouse();
    if (row && row !== first) passedUnder.add(row);
  }
  expect(passedUnder.size).toBeGreaterThanOrEqual(3);
  for (const row of passedUnder) await expect(builtActions(row)).toHaveCount(0);

  // The mouse moves a pixel: the row now under it shows its actions.
  await page.mouse.move(resting.x + 1, resting.y);
  await expect(builtActions(await underMouse())).toBeVisible();
});
