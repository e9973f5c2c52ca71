// Settings → Notifications, from the page's side of Web Push: the spec §8 permission texts, and the
// Enable button that asks from the click and then subscribes this browser and hands the subscription to
// the session. Headless Chromium's PushManager talks to Google's push service, which is not reachable
// here, so the page's PushManager is pointed at the tests' local HTTPS push service: it hands back that
// service's subscription and records the application server key it was given. Everything after is real:
// the server stores the subscription, and a teammate's @everyone arrives at the local service, decrypted.
import {
  type BrowserSubscription,
  type PushService,
  startPushService,
} from '../tests/support/push-service.ts';
import { deliverPush, recordPageBadges, recordWorkerBadges } from './support/push.ts';
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { joinedChannelId } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, scrollTo, signInThroughUi } from './support/ui.ts';

const SHOTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: LanternServer;
let push: PushService;

test.beforeAll(async () => {
  push = await startPushService();
  server = await LanternServer.create({ PUSH_ALLOW_PRIVATE: 'true', PUSH_CA_FILE: push.caFile });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await push?.close();
});

/** The page's PushManager hands out the local service's subscription (see the file's comment). */
async function pointPushManagerAt(page: Page, subscription: BrowserSubscription) {
  await page.addInitScript((sub) => {
    const w = window as unknown as { __pushKeys: string[] };
    w.__pushKeys = [];
    let current: PushSubscription | null = null;
    const make = () =>
      ({
        endpoint: sub.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        toJSON: () => sub,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      }) as unknown as PushSubscription;
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const key = options?.applicationServerKey;
      const bytes =
        key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array((key as Uint8Array).buffer);
      w.__pushKeys.push(
        btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, ''),
      );
      current = make();
      return current;
    };
    PushManager.prototype.getSubscription = async () => current;
  }, subscription);
}

async function shoot(page: Page, name: string) {
  if (!SHOTS_ON) return;
  const section = page.getByRole('region', { name: 'Notifications', exact: true });
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await scrollTo(section);
      await shot(page, `${SHOTS}/${name}-${label}-${scheme}.png`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

test('allowing notifications subscribes this browser; the server pushes a teammate’s @everyone to it', async ({
  page,
  context,
}) => {
  const { id: subId, subscription } = push.subscribe();
  await pointPushManagerAt(page, subscription);
  const pageBadges = await recordPageBadges(page);
  await signInThroughUi(page, server, 'ana@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour');
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  const state = page.getByTestId('push-permission');
  await expect(state).toHaveText(
    'Get a notification when someone mentions you or sends you a direct message.',
  );
  await shoot(page, 'settings-notifications-default');

  // The person allows notifications (the prompt's answer, or the browser's site settings): the page
  // notices, says so and subscribes. (The click that asks is covered by the refused case below:
  // headless Chromium answers a prompt nobody granted with "denied".)
  await context.grantPermissions(['notifications'], { origin: server.url });
  await expect(state).toHaveText(
    "You've enabled notifications. You'll now receive push notification updates.",
  );
  await expect(page.getByRole('button', { name: 'Enable notifications' })).toHaveCount(0);
  const ana = await server.signInApi('ana@example.com');
  const { vapidKey } = await server.api<{ vapidKey: string }>('GET', '/api/push/config', ana.token);
  // The subscription is made after the page says notifications are on: wait for it.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __pushKeys: string[] }).__pushKeys))
    .toEqual([vapidKey]);
  await shoot(page, 'settings-notifications-granted');

  // Ana leaves #general so her open page does not hold the push back (active there within 20 s).
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, ana.token, {
    emails: ['bo@example.com'],
  });
  const bo = await server.signInApi('bo@example.com');
  await server.api('PUT', '/api/users', bo.token, { name: 'Bo' });
  await server.api('POST', `/api/institutions/${workspaceId}/members`, bo.token);
  const generalId = await joinedChannelId(server, workspaceId, bo.token, 'general');
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${generalId}/messages`, bo.token, {
    content: '<p>Lunch is here</p>',
    genId: crypto.randomUUID(),
    mentions: [{ type: 'everyone', id: 'everyone' }],
  });
  const received = await push.waitFor((p) => p.subscriptionId === subId, 30_000);
  expect(received.payload).toMatchObject({
    title: 'Bo in #general',
    body: 'Lunch is here',
    channelId: generalId,
    unreadCount: 1,
  });

  // The app badge: the worker shows the server's count from the push; the page the same total from its
  // store, which counted Bo's message too.
  const { badges: workerBadges } = await recordWorkerBadges(context);
  await deliverPush(page, server.url, received.payload);
  await expect.poll(workerBadges).toEqual([1]);
  await expect.poll(async () => (await pageBadges()).at(-1)).toBe(1);

  // Signing out deletes the session's subscription on the server and drops it in the browser.
  const deleted = page.waitForResponse(
    (r) => r.url().endsWith('/api/users/sessions/fcm-token') && r.request().method() === 'DELETE',
  );
  await page
    .getByRole('button', { name: /Harbour/ })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  expect((await deleted).status()).toBe(200);
  await expect(page).toHaveURL(/\/signin/);
  // Signed out, the icon keeps no count of someone's messages.
  expect((await pageBadges()).at(-1)).toBe(0);
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription()),
  ).toBeNull();
});

test('a browser that was refused shows how to re-enable; the choices show on another device', async ({
  page,
  browser,
}) => {
  await signInThroughUi(page, server, 'dee@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Dock');
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  // Headless Chromium answers an ungranted prompt with "denied", as a person's "Block" would.
  await page.getByRole('button', { name: 'Enable notifications' }).click();
  await expect(page.getByTestId('push-permission')).toHaveText(
    'You have denied notification permission. To re-enable, go to browser settings > Notifications.',
  );
  await shoot(page, 'settings-notifications-denied');

  // Do-not-disturb for an hour: the server's answer is what the row shows; then off again.
  const dnd = page.waitForResponse(
    (r) => r.url().endsWith('/api/users/push-settings') && r.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: '1 hour' }).click();
  const until = ((await (await dnd).json()) as { dndUntil: string }).dndUntil;
  expect(Date.parse(until) - Date.now()).toBeGreaterThan(55 * 60_000);
  await expect(page.getByTestId('dnd-state')).toContainText('Paused until');
  await page.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('dnd-state')).toHaveText(
    'No push notifications on any device while it is on.',
  );

  // Channel details → Notifications: the push level is the server's (the PUT answers it back).
  await page.getByRole('link', { name: 'general' }).click();
  await page.getByRole('button', { name: 'Channel details' }).click();
  const panel = page.getByRole('dialog', { name: 'general' });
  await panel.getByRole('tab', { name: 'Notifications' }).click();
  await expect(panel.getByRole('radio', { name: /Mentions only/ })).toBeChecked();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/push-level') && r.request().method() === 'PUT',
  );
  await panel.getByRole('radio', { name: /All new messages/ }).click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ level: 'all' });
  await expect(panel.getByRole('radio', { name: /All new messages/ })).toBeChecked();
  // Muting overrides the level: the choice is kept but cannot be changed until unmuted.
  await panel.getByRole('switch', { name: 'Mute channel' }).click();
  await expect(panel.getByText('Unmute the channel to choose what reaches your devices.')).toBeVisible();
  await expect(panel.getByRole('radio', { name: /Nothing/ })).toBeDisabled();
  await shot(panel, `${SHOTS}/channel-notifications-muted-desktop-light.png`);
  await panel.getByRole('switch', { name: 'Mute channel' }).click();
  await expect(panel.getByRole('radio', { name: /Nothing/ })).toBeEnabled();
  await page.keyboard.press('Escape');
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await page.getByRole('button', { name: 'Until tomorrow' }).click();
  await expect(page.getByTestId('dnd-state')).toContainText('Paused until');

  // Dee signs in on a laptop that never saw these choices: both are the server's.
  const laptopContext = await browser.newContext({ viewport: DESKTOP });
  const laptop = await laptopContext.newPage();
  // Its browser has no Push API (as an older Safari, or a social app's browser): Settings says so.
  await laptop.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await signInThroughUi(laptop, server, 'dee@example.com');
  await laptop.goto(`${server.url}/client/${workspaceId}/settings`);
  await expect(laptop.getByTestId('dnd-state')).toContainText('Paused until');
  await expect(laptop.getByTestId('push-permission')).toHaveText(
    'This browser does not support web notification',
  );
  await expect(laptop.getByRole('button', { name: 'Enable notifications' })).toHaveCount(0);
  await shoot(laptop, 'settings-notifications-unsupported');
  const dee = await server.signInApi('dee@example.com');
  const deeGeneralId = await joinedChannelId(server, workspaceId, dee.token, 'general');
  await laptop.goto(`${server.url}/client/${workspaceId}/channel/${deeGeneralId}`);
  await laptop.getByRole('button', { name: 'Channel details' }).click();
  const laptopPanel = laptop.getByRole('dialog', { name: 'general' });
  await laptopPanel.getByRole('tab', { name: 'Notifications' }).click();
  await expect(laptopPanel.getByRole('radio', { name: /All new messages/ })).toBeChecked();
  await laptopContext.close();
});
