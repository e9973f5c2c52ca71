// (c) A message in a channel that is not open raises its unread count in the sidebar; opening the
// channel resets it, here and on the server.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sidebarChannel,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

interface Joined {
  channels: { id: string; name: string }[];
  channelMembers: { channelId: string; unreadCount: number }[];
}

test('unread count rises on another channel and resets when it is opened', async ({ page }) => {
  await signInThroughUi(page, server, 'mira@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Ops');

  // Mira creates #random through the UI (it opens), then goes back to #general.
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByLabel('Name').fill('random');
  await page.getByRole('button', { name: 'Create channel' }).last().click();
  await expect(page).toHaveTitle('#random - Lantern');
  await openChannelFromSidebar(page, 'general');

  // Tomas joins the workspace and #random through the API and writes there twice.
  const mira = await server.signInApi('mira@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, mira.token, {
    emails: ['tomas@example.com'],
  });
  const tomas = await server.signInApi('tomas@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/members`, tomas.token);
  const joined = await server.api<Joined>(
    'GET',
    `/api/institutions/${workspaceId}/channels/joined`,
    mira.token,
  );
  const random = joined.channels.find((c) => c.name === 'random');
  if (!random) throw new Error('no #random');
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${random.id}/members`, tomas.token);
  for (const text of ['Anyone around?', 'Ship leaves at six']) {
    await server.api('POST', `/api/institutions/${workspaceId}/channels/${random.id}/messages`, tomas.token, {
      content: `<p>${text}</p>`,
      genId: crypto.randomUUID(),
    });
  }

  const badge = sidebarChannel(page, 'random').getByTestId('unread-count');
  await expect(badge).toHaveText('2');
  await expect(sidebarChannel(page, 'general').getByTestId('unread-count')).toHaveCount(0);

  await openChannelFromSidebar(page, 'random');
  await expect(messageList(page).filter({ hasText: 'Ship leaves at six' })).toBeVisible();
  await expect(badge).toHaveCount(0);
  // The "New messages" line stands above the first of the two (decision 0084), and stays there when
  // Tomas writes again while Mira reads.
  const line = page.locator('[data-new-messages]');
  await expect(line).toHaveText('New messages');
  const firstUnread = page.getByRole('article').filter({ hasText: 'Anyone around?' });
  const below = async () =>
    ((await firstUnread.boundingBox())?.y ?? 0) - ((await line.boundingBox())?.y ?? Number.POSITIVE_INFINITY);
  expect(await below()).toBeGreaterThan(0);
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${random.id}/messages`, tomas.token, {
    content: '<p>Bring a coat</p>',
    genId: crypto.randomUUID(),
  });
  await expect(page.getByRole('article').filter({ hasText: 'Bring a coat' })).toBeVisible();
  await expect(line).toHaveCount(1);
  expect(await below()).toBeGreaterThan(0);
  await shot(page, 'e2e/artifacts/new-messages-line.png');
  await expect
    .poll(async () => {
      const now = await server.api<Joined>(
        'GET',
        `/api/institutions/${workspaceId}/channels/joined`,
        mira.token,
      );
      return now.channelMembers.find((m) => m.channelId === random.id)?.unreadCount;
    })
    .toBe(0);
});

test('messages seen live in the open channel are never unread again: not after a reload, not on another device', async ({
  page,
  browser,
}) => {
  await signInThroughUi(page, server, 'lena@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Quay Crew');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByLabel('Name').fill('random');
  await page.getByRole('button', { name: 'Create channel' }).last().click();
  await expect(page).toHaveTitle('#random - Lantern');
  await openChannelFromSidebar(page, 'general');

  const lena = await server.signInApi('lena@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, lena.token, {
    emails: ['omar@example.com'],
  });
  const omar = await server.signInApi('omar@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/members`, omar.token);
  const joined = await server.api<Joined>(
    'GET',
    `/api/institutions/${workspaceId}/channels/joined`,
    omar.token,
  );
  const general = joined.channels.find((c) => c.name === 'general');
  if (!general) throw new Error('no #general');

  // With #general open, Omar posts twice; both appear live.
  for (const text of ['Crane is fixed', 'Berth 4 is free']) {
    await server.api('POST', `/api/institutions/${workspaceId}/channels/${general.id}/messages`, omar.token, {
      content: `<p>${text}</p>`,
      genId: crypto.randomUUID(),
    });
  }
  await expect(messageList(page).filter({ hasText: 'Berth 4 is free' })).toBeVisible();

  // The server learns they were read, so Lena's laptop (a second device) shows no count for #general.
  await expect
    .poll(async () => {
      const now = await server.api<Joined>(
        'GET',
        `/api/institutions/${workspaceId}/channels/joined`,
        lena.token,
      );
      return now.channelMembers.find((m) => m.channelId === general.id)?.unreadCount;
    })
    .toBe(0);
  const laptop = await browser.newContext();
  const laptopPage = await laptop.newPage();
  await signInThroughUi(laptopPage, server, 'lena@example.com');
  await openChannelFromSidebar(laptopPage, 'random');
  await expect(sidebarChannel(laptopPage, 'general')).toBeVisible();
  await expect(sidebarChannel(laptopPage, 'general').getByTestId('unread-count')).toHaveCount(0);
  await laptop.close();

  // A reload, then another channel: #general still shows nothing unread.
  await page.reload();
  await expect(messageList(page).filter({ hasText: 'Berth 4 is free' })).toBeVisible();
  await openChannelFromSidebar(page, 'random');
  await page.waitForTimeout(1_500);
  await expect(sidebarChannel(page, 'general').getByTestId('unread-count')).toHaveCount(0);
});
