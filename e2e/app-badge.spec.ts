// The app badge (issue 13): the page sets the icon's number to the person's unread total as it changes,
// messages in several channels adding up, and clears it when the last unread channel is opened; muted
// channels do not count. The service worker's side (the count a push carries) is in push.spec.ts and
// push-settings.spec.ts. The Badging API is the browser's: its calls are recorded (e2e/support/push.ts).
import { deliverPush, recordPageBadges, recordWorkerBadges } from './support/push.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  openChannelFromSidebar,
  sidebarChannel,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

test('the page’s app badge counts unread messages across channels and clears when they are read', async ({
  page,
}) => {
  const badges = await recordPageBadges(page);
  const last = async () => (await badges()).at(-1);
  await signInThroughUi(page, server, 'mira@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Ops');

  const mira = await server.signInApi('mira@example.com');
  const makeChannel = async (name: string) =>
    (
      await server.api<{ channel: { id: string } }>(
        'POST',
        `/api/institutions/${workspaceId}/channels`,
        mira.token,
        { name },
      )
    ).channel.id;
  const random = await makeChannel('random');
  const ships = await makeChannel('ships');
  const quiet = await makeChannel('quiet');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, mira.token, {
    emails: ['tomas@example.com'],
  });
  const tomas = await server.signInApi('tomas@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/members`, tomas.token);
  for (const id of [random, ships, quiet])
    await server.api('POST', `/api/institutions/${workspaceId}/channels/${id}/members`, tomas.token);
  // Mira mutes #quiet (through the API; Channel details has its own spec), then reloads to see it all.
  await server.api('PUT', `/api/institutions/${workspaceId}/channels/${quiet}/members`, mira.token, {
    muted: true,
  });
  await page.reload();
  await expect(sidebarChannel(page, 'quiet')).toBeVisible();
  await openChannelFromSidebar(page, 'general');

  const say = (channelId: string, text: string) =>
    server.api('POST', `/api/institutions/${workspaceId}/channels/${channelId}/messages`, tomas.token, {
      content: `<p>${text}</p>`,
      genId: crypto.randomUUID(),
    });
  await say(random, 'Anyone around?');
  await expect.poll(last).toBe(1);
  await say(ships, 'Ship leaves at six');
  await say(ships, 'Bring the charts');
  await expect.poll(last).toBe(3);
  // A muted channel's messages stay off the icon (the sidebar still counts them).
  await say(quiet, 'psst');
  await expect(sidebarChannel(page, 'quiet').getByTestId('unread-count')).toHaveText('1');
  expect(await last()).toBe(3);
  await say(random, 'Lunch?');
  await expect.poll(last).toBe(4);

  await openChannelFromSidebar(page, 'ships');
  await expect.poll(last).toBe(2);
  await openChannelFromSidebar(page, 'random');
  await expect.poll(last).toBe(0);
});

test('a push through Firebase sets the badge from its count, its fields read from FCM’s strings', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications'], { origin: server.url });
  await signInThroughUi(page, server, 'ines@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Dockside');
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  const { badges } = await recordWorkerBadges(context);
  // What a browser registered through Firebase hands the worker (decision 0046): FCM's envelope, with the
  // spec §3 fields as strings under `data`.
  await deliverPush(page, server.url, {
    data: {
      title: 'Bo in #harbour',
      body: 'Cranes are down',
      channelId: crypto.randomUUID(),
      clientId: workspaceId,
      messageId: crypto.randomUUID(),
      isPwa: 'false',
      requiresRefresh: 'false',
      idOnly: 'false',
      unreadCount: '7',
    },
    from: '1234567890',
    priority: 'high',
    fcmMessageId: crypto.randomUUID(),
  });
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Bo in #harbour' })).toContainText(
    'Cranes are down',
  );
  await expect.poll(badges).toEqual([7]);
});
