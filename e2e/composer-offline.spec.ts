// Issue 15 item 2, offline: a message written offline reads "Waiting for connection" (not "Sending…"),
// keeps the time it was written before and after delivery, and after reconnecting the list is at the
// newest message, or, scrolled up, offers "Jump to latest" with the count of what arrived meanwhile.
import { shootBothThemes } from './support/composer-shots.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate, joinedChannelId } from './support/team.ts';
import { expect, test } from './support/test.ts';
import {
  appShellCached,
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

const SHOTS = '/tmp/shots/composer15';
const online = (page: import('@playwright/test').Page) => page.getByText('Online', { exact: true });

// The connection is cut by stopping the server: context.setOffline does not reach the SharedWorker that
// holds the socket.
test('offline messages wait for the connection and keep their time; the list comes back to the newest', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'noor@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Tidewater');
  await openChannelFromSidebar(page, 'general');
  const owner = await server.signInApi('noor@example.com');
  const kai = await addTeammate(server, workspaceId, owner.token, 'kai@example.com', 'Kai Moana');
  const generalId = await joinedChannelId(server, workspaceId, owner.token, 'general');
  const kaiSays = (text: string) =>
    server.api('POST', `/api/institutions/${workspaceId}/channels/${generalId}/messages`, kai.token, {
      content: `<p>${text}</p>`,
      genId: crypto.randomUUID(),
    });
  // Enough history to scroll.
  for (let i = 1; i <= 40; i++) await kaiSays(`Earlier note ${i}`);
  await expect(messageList(page).filter({ hasText: 'Earlier note 40' })).toBeVisible();
  await sendThroughUi(page, '#general', 'Before the tunnel');
  await expect(messageList(page).filter({ hasText: 'Before the tunnel' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );

  await appShellCached(page);
  await server.stop();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible({
    timeout: 45_000,
  });
  await sendThroughUi(page, '#general', 'Written in the tunnel');
  const row = messageList(page).filter({ hasText: 'Written in the tunnel' });
  await expect(row).toHaveAttribute('data-status', 'pending');
  await expect(row.getByTestId('delivery')).toHaveText('Waiting for connection');
  await expect(row.getByText('Sending…')).toHaveCount(0);
  const writtenAt = await row.locator('time').first().getAttribute('datetime');
  expect(writtenAt).toBeTruthy();
  await shootBothThemes(page, SHOTS, 'row-waiting');

  // Scrolled up while offline; Kai writes as the server returns.
  await page.locator('[data-message-scroller]').evaluate((el) => el.scrollTo({ top: 0 }));
  const jump = page.getByRole('button', { name: /Jump to latest/ });
  await expect(jump).toBeVisible();
  // Delivery comes later than writing: a second at least, so the two times differ.
  await page.waitForTimeout(1_100);

  await server.start();
  await kaiSays('While you were away one');
  await kaiSays('While you were away two');
  await expect(online(page)).toBeVisible({ timeout: 30_000 });
  // Still where the person left it, with the way back and what arrived meanwhile.
  await expect(jump).toContainText('2 new', { timeout: 45_000 });
  await expect(messageList(page).filter({ hasText: 'Earlier note 1' }).first()).toBeInViewport();
  await shootBothThemes(page, SHOTS, 'jump-to-latest');
  // Keyboard reachable.
  await jump.focus();
  await page.keyboard.press('Enter');
  await expect(messageList(page).filter({ hasText: 'While you were away two' })).toBeInViewport();
  await expect(jump).toHaveCount(0);

  await expect(row).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });
  // The time it was written, not the time it arrived: the same instant before and after delivery.
  expect(await row.locator('time').first().getAttribute('datetime')).toBe(writtenAt);

  // At the newest message, a reconnect keeps it there: no button, the newest in view.
  await appShellCached(page);
  await server.stop();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible({
    timeout: 45_000,
  });
  await server.start();
  await kaiSays('Back at the newest');
  await expect(messageList(page).filter({ hasText: 'Back at the newest' })).toBeInViewport({
    timeout: 30_000,
  });
  await expect(jump).toHaveCount(0);
  await expect(composer(page, '#general')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a message written offline reads "Waiting for connection", and scrolling up offers the way back', async ({
    page,
  }) => {
    await signInThroughUi(page, server, 'ari@example.com');
    const workspaceId = await createWorkspaceThroughUi(page, 'Quay');
    const owner = await server.signInApi('ari@example.com');
    const generalId = await joinedChannelId(server, workspaceId, owner.token, 'general');
    for (let i = 1; i <= 30; i++)
      await server.api(
        'POST',
        `/api/institutions/${workspaceId}/channels/${generalId}/messages`,
        owner.token,
        {
          content: `<p>Tide table ${i}</p>`,
          genId: crypto.randomUUID(),
        },
      );
    await page
      .getByRole('link', { name: /^general\b/ })
      .first()
      .click();
    await expect(messageList(page).filter({ hasText: 'Tide table 30' })).toBeVisible();

    await appShellCached(page);
    await server.stop();
    await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible({
      timeout: 45_000,
    });
    await sendThroughUi(page, '#general', 'Written on the quay');
    const row = messageList(page).filter({ hasText: 'Written on the quay' });
    await expect(row.getByTestId('delivery')).toHaveText('Waiting for connection');
    await shootBothThemes(page, SHOTS, 'row-waiting');

    await page.locator('[data-message-scroller]').evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeVisible();
    await shootBothThemes(page, SHOTS, 'jump-to-latest');
    await server.start();
  });
});
