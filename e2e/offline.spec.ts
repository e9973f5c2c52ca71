// (b) Offline: with the channel open the server stops; three messages wait as "Waiting for connection"; a reload
// still opens the app (service worker) with them and the half-typed draft; when the server returns
// on the same data all three are stored exactly once and the pending marks disappear.
import { specServer } from './support/spec-server.ts';
import { joinedChannelId } from './support/team.ts';
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

interface StoredMessage {
  genId: string;
  content: string;
  deletedAt: string | null;
}

test('messages written while the server is down are delivered exactly once when it returns', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'lin@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Night Shift');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Before the outage');
  await expect(messageList(page).filter({ hasText: 'Before the outage' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );

  // The app shell must be cached before the server goes away.
  await appShellCached(page);

  const api = await server.signInApi('lin@example.com');
  const generalId = await joinedChannelId(server, workspaceId, api.token, 'general');

  // The banner, once shown, stays until the reload: it once showed for a frame the moment the connection
  // dropped, went, and came back after the grace period (both it and the footer's "Offline").
  await page.evaluate(() => {
    const w = window as unknown as { bannerGaps: string[] };
    w.bannerGaps = [];
    const shown = () =>
      [...document.querySelectorAll('[role="status"]')].some((e) =>
        e.textContent?.includes('You are offline.'),
      );
    let was = shown();
    const started = performance.now();
    new MutationObserver(() => {
      const now = shown();
      if (was && !now) w.bannerGaps.push(`gone ${Math.round(performance.now() - started)} ms after the stop`);
      was = now;
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await server.stop();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible({
    timeout: 45_000,
  });
  const texts = ['Offline one', 'Offline two', 'Offline three'];
  for (const text of texts) await sendThroughUi(page, '#general', text);
  for (const text of texts) {
    const row = messageList(page).filter({ hasText: text });
    await expect(row).toHaveAttribute('data-status', 'pending');
    await expect(row.getByText('Waiting for connection')).toBeVisible();
  }
  await expect(page.getByRole('status').filter({ hasText: '3 messages will be sent' })).toBeVisible();
  // The sidebar's footer says the same as the banner, not "Connecting" for as long as the outage lasts.
  await expect(page.getByRole('link', { name: /Your profile/ })).toContainText(/Offline\s*· 3 waiting/);
  // Waiting for the server animates nothing: an outage can last hours, and an endless animation (the
  // banner's spinner did) keeps the device drawing frames, its battery and a slow phone's cores with it.
  expect(
    await page.evaluate(
      () =>
        document
          .getAnimations()
          .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations === Infinity).length,
    ),
  ).toBe(0);

  // A half-typed message: saved as the channel's draft with every keystroke.
  await composer(page, '#general').pressSequentially('half-typed thou');
  await expect(page.getByText('Draft saved on this device')).toBeVisible();
  await expect(page.getByRole('link', { name: /Drafts/ })).toContainText('1');
  expect(await page.evaluate(() => (window as unknown as { bannerGaps: string[] }).bannerGaps)).toEqual([]);

  await page.reload();
  await expect(composer(page, '#general')).toBeVisible();
  await expect(composer(page, '#general')).toHaveText('half-typed thou');
  for (const text of texts) {
    await expect(messageList(page).filter({ hasText: text })).toHaveAttribute('data-status', 'pending');
  }
  await expect(messageList(page).getByText('Waiting for connection')).toHaveCount(3);

  await server.start();
  await expect(messageList(page).getByText('Waiting for connection')).toHaveCount(0, { timeout: 45_000 });
  await expect(page.getByText('Sending…')).toHaveCount(0, { timeout: 45_000 });
  for (const text of texts) {
    await expect(messageList(page).filter({ hasText: text })).toHaveAttribute('data-status', 'confirmed');
  }
  // The draft is still there, untouched by the delivery.
  await expect(composer(page, '#general')).toHaveText('half-typed thou');

  const stored = await server.api<{ data: StoredMessage[] }>(
    'GET',
    `/api/institutions/${workspaceId}/channels/${generalId}/messages?page=1&limit=100`,
    api.token,
  );
  const live = stored.data.filter((m) => !m.deletedAt);
  for (const text of texts) {
    expect(
      live.filter((m) => m.content.includes(text)),
      `"${text}" stored once`,
    ).toHaveLength(1);
  }
  expect(new Set(live.map((m) => m.genId)).size).toBe(live.length);
  expect(live).toHaveLength(4);
});
