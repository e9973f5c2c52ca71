// Web Push to the real service worker: a teammate's @everyone reaches the tests' local HTTPS push service
// (VAPID checked, payload decrypted), and that decrypted payload is delivered to the app's service worker
// through the DevTools protocol (headless Chromium cannot reach a real push service), which shows the
// notification with the sender and channel as title, the text as body and the channel id as tag.
// The subscription is made as the browser would hand it over (its keys held by the local service); the
// page's own subscribe flow is e2e/push-settings.spec.ts. Opening the channel then closes the notification.
import { expect, test } from '@playwright/test';
import { type PushService, startPushService } from '../tests/support/push-service.ts';
import { LanternServer } from './support/server.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

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

test('a teammate’s @everyone becomes a notification shown by the service worker', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications'], { origin: server.url });
  await signInThroughUi(page, server, 'ana@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour');
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });

  const ana = await server.signInApi('ana@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, ana.token, {
    emails: ['bo@example.com', 'cy@example.com'],
  });
  // The subscriber is a teammate who has not opened #general: Ana's page may have, and a push is held
  // back from someone active in the message's channel in the last 20 s.
  const cy = await server.signInApi('cy@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/members`, cy.token);
  const { id: subId, subscription } = push.subscribe();
  await server.api('PUT', '/api/users/sessions/fcm-token', cy.token, { fcmToken: subscription });

  const bo = await server.signInApi('bo@example.com');
  await server.api('PUT', '/api/users', bo.token, { name: 'Bo' });
  await server.api('POST', `/api/institutions/${workspaceId}/members`, bo.token);
  const joined = await server.api<{ channels: { id: string; name: string }[] }>(
    'GET',
    `/api/institutions/${workspaceId}/channels/joined`,
    bo.token,
  );
  const general = joined.channels.find((c) => c.name === 'general');
  if (!general) throw new Error('no general channel');
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${general.id}/messages`, bo.token, {
    content: '<p>Standup moved to 10:30</p>',
    genId: crypto.randomUUID(),
    mentions: [{ type: 'everyone', id: 'everyone' }],
  });
  const received = await push.waitFor((p) => p.subscriptionId === subId);

  // Ana is elsewhere (Settings) when it arrives; a fresh page load closes every notification (spec §4).
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // Hand the decrypted payload to the app's service worker, as the browser's push service would.
  const cdp = await context.newCDPSession(page);
  // Another tab in front: a push while a Lantern page has focus becomes a toast instead (decision 0034).
  // Playwright tells every page it has focus; that pretence ends here.
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  await (await context.newPage()).bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL.startsWith(server.url) && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(server.url).origin,
    registrationId: await registrationId,
    data: JSON.stringify(received.payload),
  });

  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
        }));
      }),
    )
    .toEqual([{ title: 'Bo in #general', body: 'Standup moved to 10:30', tag: general.id }]);

  // Opening the channel in the app (no reload) closes its notification on this device.
  await page.getByRole('link', { name: 'general' }).click();
  await expect
    .poll(() =>
      page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length),
    )
    .toBe(0);
});
