// A push that arrives while Lantern is in the foreground (spec §2, §4, decision 0034): the service
// worker hands it to the focused page, which shows a toast with 'View in channel' and plays
// message-received.mp3 when it is for another channel, and stays quiet for the open one. The push is
// delivered to the real service worker through the DevTools protocol, as in push.spec.ts.
import { deliverPush } from './support/push.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { joinedChannelId } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const server = specServer();

/** What the page asked to play, by file name. */
function played(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __played: string[] }).__played);
}

test('a push for another channel shows a toast that opens it; the open channel stays quiet', async ({
  page,
  context,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __played: string[] };
    w.__played = [];
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      w.__played.push(new URL(this.src).pathname);
      return play.call(this).catch(() => undefined);
    };
  });
  await context.grantPermissions(['notifications'], { origin: server.url });
  await signInThroughUi(page, server, 'ana@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour');
  const ana = await server.signInApi('ana@example.com');
  const random = await server.api<{ channel: { id: string } }>(
    'POST',
    `/api/institutions/${workspaceId}/channels`,
    ana.token,
    { name: 'random' },
  );
  const generalId = await joinedChannelId(server, workspaceId, ana.token, 'general');
  const randomId = random.channel.id;

  await page.goto(`${server.url}/client/${workspaceId}/channel/${generalId}`);
  await expect(page.getByRole('textbox', { name: 'Message #general' })).toBeVisible();
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  await page.bringToFront();

  await deliverPush(page, server.url, {
    title: 'Bo in #random',
    body: 'Lunch at noon?',
    channelId: randomId,
    clientId: workspaceId,
    isPwa: false,
    requiresRefresh: false,
  });
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Bo in #random' });
  await expect(toast).toContainText('Lunch at noon?');
  await expect.poll(() => played(page)).toContain('/message-received.mp3');
  // The page took it: no system notification on top of the toast.
  const notifications = await page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title),
  );
  expect(notifications).toEqual([]);
  await shot(page, 'e2e/artifacts/foreground-toast-desktop-light.png');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'e2e/artifacts/foreground-toast-desktop-dark.png');
  await page.emulateMedia({ colorScheme: 'light' });

  await toast.getByRole('button', { name: 'View in channel' }).click();
  await expect(page).toHaveURL(`${server.url}/client/${workspaceId}/channel/${randomId}`);
  await expect(page.getByRole('textbox', { name: 'Message #random' })).toBeVisible();

  // The same channel is open now: nothing is shown and nothing is played.
  await deliverPush(page, server.url, {
    title: 'Bo in #random',
    body: 'Second thought: 12:30',
    channelId: randomId,
    clientId: workspaceId,
    isPwa: false,
    requiresRefresh: false,
  });
  // A push for #general afterwards proves the first one was handled (and ignored), not still in flight.
  // (At phone width, for its picture.)
  await page.setViewportSize({ width: 390, height: 844 });
  await deliverPush(page, server.url, {
    title: 'Bo in #general',
    body: 'Standup moved',
    channelId: generalId,
    isPwa: false,
    requiresRefresh: false,
  });
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Bo in #general' })).toBeVisible();
  await page.waitForTimeout(500); // the toast's entrance, for the picture only
  await shot(page, 'e2e/artifacts/foreground-toast-phone-light.png');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'e2e/artifacts/foreground-toast-phone-dark.png');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByText('Second thought: 12:30')).toHaveCount(0);
  // One chime for the #random toast, one for #general, none for the push to the open channel.
  await expect
    .poll(async () => (await played(page)).filter((p) => p === '/message-received.mp3').length)
    .toBe(2);

  // Without a client id, 'View in channel' opens the channel in the current workspace.
  await page
    .locator('[data-sonner-toast]')
    .filter({ hasText: 'Bo in #general' })
    .getByRole('button', { name: 'View in channel' })
    .click();
  await expect(page).toHaveURL(`${server.url}/client/${workspaceId}/channel/${generalId}`);

  // An id-only push (PUSH_ID_ONLY: no text passes the push service) is filled in from this device's store;
  // one for a message the store has not got yet still says where it is.
  const posted = await server.api<{ id: string }>(
    'POST',
    `/api/institutions/${workspaceId}/channels/${randomId}/messages`,
    ana.token,
    { content: '<p>Stored <b>here</b> only</p>', genId: crypto.randomUUID() },
  );
  await page.goto(`${server.url}/client/${workspaceId}/channel/${randomId}`);
  await expect(page.getByText('Stored here only')).toBeVisible();
  await page.goto(`${server.url}/client/${workspaceId}/channel/${generalId}`);
  await expect(page.getByRole('textbox', { name: 'Message #general' })).toBeVisible();
  const idOnly = { title: '', body: '', channelId: randomId, clientId: workspaceId, idOnly: true };
  await deliverPush(page, server.url, { ...idOnly, messageId: posted.id });
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'ana in #random' })).toContainText(
    'Stored here only',
  );
  await deliverPush(page, server.url, { ...idOnly, messageId: crypto.randomUUID() });
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'New message in #random' }),
  ).toContainText('Open Lantern to read it.');

  // Switched off in Settings, the sound stays off after a reload; the toast still shows.
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  const sound = page.getByRole('switch', { name: 'Sound for new messages' });
  await expect(sound).toBeChecked();
  await sound.click();
  await expect(sound).not.toBeChecked();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sound for new messages' })).not.toBeChecked();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await deliverPush(page, server.url, {
    title: 'Bo in #random',
    body: 'Quiet please',
    channelId: randomId,
    clientId: workspaceId,
    isPwa: false,
    requiresRefresh: false,
  });
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Quiet please' })).toBeVisible();
  expect(await played(page)).not.toContain('/message-received.mp3');
});
