// Menus, tooltips and popovers whose Radix parts load after a channel's first rows (decision 0067): a
// menu's trigger pressed before they have come opens the menu once they do, by pointer or keyboard, and
// a trigger that had focus keeps it (a tooltip's too); tooltips show on hover and on focus. What waits
// for the first rows does not wait for them in an emptied channel, nor once the person presses a key.
import { specServer } from './support/spec-server.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

// Without the service worker, so the parts' script comes over the network, where the test holds it.
test.use({ serviceWorkers: 'block' });

/** Holds the overlay parts' script until the returned function is called. */
async function holdOverlayParts(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/overlay-parts-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('a menu pressed before its parts have loaded opens when they come, by pointer and by keyboard', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'ada@example.com');
  await createWorkspaceThroughUi(page, 'Harbour Works');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Morning, everyone');
  // Sent before the reloads below: a reload within a frame or two of Enter comes before the message is
  // stored, and the words wait in the draft instead (as they should); the menus are what is tested here.
  await expect(messageList(page).filter({ hasText: 'Morning, everyone' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
  const channelUrl = page.url();

  // By pointer.
  let release = await holdOverlayParts(page);
  await page.goto(channelUrl);
  await expect(messageList(page).filter({ hasText: 'Morning, everyone' })).toBeVisible();
  const options = page.getByRole('button', { name: 'Channel options' });
  await options.click();
  await expect(options).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('menu')).toHaveCount(0);
  release();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Channel details' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Channel options' })).toBeFocused();

  // By keyboard: the trigger focused and Enter pressed before the parts come; focus stays on the trigger.
  await page.unroute(/overlay-parts-[^/]*\.js$/);
  release = await holdOverlayParts(page);
  await page.goto(channelUrl);
  await expect(messageList(page).filter({ hasText: 'Morning, everyone' })).toBeVisible();
  await page.getByRole('button', { name: 'Channel options' }).focus();
  await page.keyboard.press('Enter');
  release();
  await expect(page.getByRole('menuitem', { name: 'Channel details' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Channel options' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Channel options' })).toHaveAttribute(
    'aria-expanded',
    'false',
  );

  // A button with a tooltip, focused before the parts come, keeps its focus when Radix's trigger takes
  // its place, and focus shows the tooltip at once.
  await page.unroute(/overlay-parts-[^/]*\.js$/);
  release = await holdOverlayParts(page);
  await page.goto(channelUrl);
  await expect(messageList(page).filter({ hasText: 'Morning, everyone' })).toBeVisible();
  await page.getByRole('button', { name: 'Channel details' }).focus();
  release();
  await expect(page.getByRole('tooltip', { name: 'Channel details' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Channel details' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toHaveCount(0);

  // A tooltip, once the parts are in: on hover, and gone when the pointer leaves.
  const details = page.getByRole('button', { name: 'Channel details' });
  await details.hover();
  await expect(page.getByRole('tooltip', { name: 'Channel details' })).toBeVisible();
  // The pointer jumps into the message list (a path across the header would pass other buttons' tooltips,
  // which open at once within 300 ms of one closing) and moves there until the tooltip has gone: Radix
  // keeps a tooltip open while the pointer may be on its way to it and decides on a later move, and a
  // loaded machine could run every move of one gesture before that check was in place.
  const list = await messageList(page).first().boundingBox();
  if (!list) throw new Error('the first message row has no box');
  const x = list.x + list.width * 0.4;
  const y = list.y + list.height * 0.5;
  await page.mouse.move(x, y);
  await expect(async () => {
    await page.mouse.move(x + 4, y + 4);
    await page.mouse.move(x, y);
    await expect(page.getByRole('tooltip')).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
});

test('in a channel whose every message was deleted, the intro shows and the composer comes without waiting', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'hana@example.com');
  await createWorkspaceThroughUi(page, 'Kiln Works');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Wrong channel, sorry');
  const sent = messageList(page).filter({ hasText: 'Wrong channel, sorry' });
  await expect(sent).toHaveAttribute('data-status', 'confirmed');
  await sent.hover();
  await sent.getByRole('button', { name: 'More message actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete message' }).click();
  await page.getByRole('dialog', { name: 'Delete message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(messageList(page)).toHaveCount(0);
  // Nothing older is left: the top of the history shows, not an empty pane.
  await expect(page.getByTestId('channel-intro')).toBeVisible();

  // Reloaded, the channel has no rows to paint: what waits for a channel's first rows (the editor among
  // it) must not wait for its 30 s time-out, nor for a key or a tap.
  await page.reload();
  await expect(page.getByTestId('channel-intro')).toBeVisible();
  await expect(composer(page, '#general')).toBeVisible({ timeout: 10_000 });
});

test('on a first visit whose rows are slow to come, the composer comes with the first key', async ({
  page,
  browser,
}) => {
  await signInThroughUi(page, server, 'ines@example.com');
  await createWorkspaceThroughUi(page, 'Slow Rows');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Written on the first device');
  const channelUrl = page.url();

  // A second device whose message fetches never answer (a very slow network): the rows do not come, so
  // what waits for them (the editor among it) would wait for its 30 s time-out. The dedicated-worker
  // fallback is used because Playwright's routing reaches a dedicated worker's requests, not a
  // SharedWorker's.
  const context = await browser.newContext();
  try {
    await context.addInitScript(() => {
      Reflect.deleteProperty(globalThis, 'SharedWorker');
    });
    await context.route(/\/api\/institutions\/[^/]+\/(channels\/[^/]+\/)?messages/, () => {});
    const second = await context.newPage();
    await signInThroughUi(second, server, 'ines@example.com');
    await second.goto(channelUrl);
    await expect(second.getByTestId('composer-loading')).toBeVisible();
    await expect(messageList(second)).toHaveCount(0);
    // A key (Tab, on the way to the composer) is enough: the person is doing something.
    await second.keyboard.press('Tab');
    await expect(composer(second, '#general')).toBeVisible({ timeout: 10_000 });
  } finally {
    await context.close();
  }
});
