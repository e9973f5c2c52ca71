// Issue 15 item 7: settings that say what they do and do it — the Enter switch named for what it does, a
// theme chosen on the device that holds from the first paint of a reload, "Show images in channels"
// honoured, and a channel row menu with Mark as read, Mute, Copy link and Leave.
import { samplePng } from './support/sample-files.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { createChannelApi } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sidebarChannel,
  signInThroughUi,
} from './support/ui.ts';

const SHOTS = 'test-results/settings';
const server = specServer();

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const LIGHT_APP = 'rgb(244, 244, 244)';
const DARK_APP = 'rgb(24, 24, 27)';
/** The theme-color tags' colours, in the page's order (light system's tag first). */
const barColours = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((tag) => tag.content),
  );

test('the theme, the Enter switch and pictures in messages do what their settings say', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signInThroughUi(page, server, 'ines@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Lighthouse');

  // A picture in #general, shown inline while the setting is on (its default).
  await openChannelFromSidebar(page, 'general');
  await page.locator('input[type=file]').setInputFiles([
    { name: 'harbour.png', mimeType: 'image/png', buffer: samplePng() },
    { name: 'quay.png', mimeType: 'image/png', buffer: samplePng(64, 48) },
  ]);
  await expect(page.getByRole('button', { name: 'Remove quay.png' })).toBeVisible();
  await composer(page, '#general').fill('The harbour at dawn');
  await composer(page, '#general').press('Enter');
  const post = messageList(page).filter({ hasText: 'The harbour at dawn' });
  await expect(post.getByRole('img', { name: 'harbour.png' })).toBeVisible();

  // Full size (issue 15 item 6): the viewer zooms with + and 0, and → shows the message's next picture.
  await post.getByRole('button', { name: 'Open harbour.png full size' }).click();
  const viewer = page.getByRole('dialog', { name: /harbour\.png/ });
  await expect(viewer).toContainText('1 of 2');
  await expect(viewer.getByRole('img', { name: 'harbour.png' })).toBeVisible();
  await page.keyboard.press('+');
  await expect(viewer.getByRole('button', { name: /^Zoom 150%/ })).toBeVisible();
  await page.keyboard.press('0');
  await expect(viewer.getByRole('button', { name: /^Zoom 100%/ })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  const next = page.getByRole('dialog', { name: /quay\.png/ });
  await expect(next).toContainText('2 of 2');
  await expect(next.getByRole('img', { name: 'quay.png' })).toBeVisible();
  await shot(page, `${SHOTS}/image-viewer-desktop.png`);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  // The switch that swaps Enter and Shift+Enter is named for that.
  await expect(page.getByRole('switch', { name: /Enter adds a new line/ })).toBeVisible();
  await expect(page.getByText('Advanced formatting toolbar')).toHaveCount(0);

  // Dark, whatever the system says; it holds through a reload, before the app has started.
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
  expect(await background(page)).toBe(LIGHT_APP);
  // The radios are the labels a person clicks (the inputs themselves are visually hidden).
  await theme.getByText('Dark').click();
  expect(await background(page)).toBe(DARK_APP);
  // The browser's bar above the page goes dark too, though the system is light (spec §9's 24,24,27).
  expect(await barColours(page)).toEqual(['#18181b', '#18181b']);
  // Choosing does not move the page (the app scrolls inside its panes; the document itself never does).
  expect(await page.evaluate(() => document.scrollingElement?.scrollTop)).toBe(0);
  await shot(page, `${SHOTS}/theme-dark-desktop.png`);
  await page.reload({ waitUntil: 'commit' });
  await page.waitForSelector('html[data-theme="dark"]', { state: 'attached' });
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' })).toBeChecked();
  expect(await background(page)).toBe(DARK_APP);
  // Light against a dark system, then back to following the system.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('group', { name: 'Theme' }).getByText('Light').click();
  expect(await background(page)).toBe(LIGHT_APP);
  expect(await barColours(page)).toEqual(['#f4f4f4', '#f4f4f4']);
  await page.getByRole('group', { name: 'Theme' }).getByText('System').click();
  expect(await background(page)).toBe(DARK_APP);
  // Following the system again: each tag its own scheme's colour.
  expect(await barColours(page)).toEqual(['#f4f4f4', '#18181b']);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await background(page)).toBe(LIGHT_APP);

  // Pictures off: the picture is a file card, nothing is shown until asked for.
  await page.getByRole('switch', { name: /Show images in channels/ }).click();
  await openChannelFromSidebar(page, 'general');
  await expect(post.getByText('harbour.png')).toBeVisible();
  await expect(post.getByRole('img', { name: 'harbour.png' })).toHaveCount(0);
  await shot(page, `${SHOTS}/images-off-desktop.png`);
  await post.getByRole('button', { name: 'Show picture' }).first().click();
  await expect(post.getByRole('img', { name: 'harbour.png' })).toBeVisible();

  // A profile picture is uploaded from the device, kept, and can be removed again.
  await page.goto(`${server.url}/client/${workspaceId}/profile`);
  await page.getByLabel('Choose a picture').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: samplePng(96, 96),
  });
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await shot(page, `${SHOTS}/profile-picture-desktop.png`);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Change picture' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Upload picture' })).toBeVisible();

  // Another device renames her: the profile opened here shows the new name (GET /api/users), and saving
  // a picture here while the other device renames her again keeps that name (only the picture is sent).
  const phone = await server.signInApi('ines@example.com');
  await server.api('PUT', '/api/users', phone.token, { name: 'Inès on her phone' });
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await page.goto(`${server.url}/client/${workspaceId}/profile`);
  await expect(page.getByLabel('Display name')).toHaveValue('Inès on her phone');
  await server.api('PUT', '/api/users', phone.token, { name: 'Inès, renamed again' });
  await page
    .getByLabel('Choose a picture')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: samplePng(96, 96) });
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  const saved = await server.api<{ name: string; profileImage: string | null }>(
    'GET',
    '/api/users',
    phone.token,
  );
  expect(saved.name).toBe('Inès, renamed again');
  expect(saved.profileImage).toMatch(/^data:image\//);

  // The same screens on a phone in the dark theme, for a person to look at.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await page.getByRole('group', { name: 'Theme' }).getByText('Dark').click();
  await page.getByRole('region', { name: 'Appearance' }).scrollIntoViewIfNeeded();
  await shot(page, `${SHOTS}/theme-dark-phone.png`);
  await page.goto(`${server.url}/client/${workspaceId}/profile`);
  await expect(page.getByRole('button', { name: 'Change picture' })).toBeVisible();
  await shot(page, `${SHOTS}/profile-phone-dark.png`);
});

interface Joined {
  channelMembers: { channelId: string; unreadCount: number; muted?: boolean }[];
}

test('a channel row menu marks it read, mutes it, copies its link and leaves it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signInThroughUi(page, server, 'jo@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Quayside');
  const jo = await server.signInApi('jo@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, jo.token, {
    emails: ['kai@example.com'],
  });
  const kai = await server.signInApi('kai@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/members`, kai.token);
  // Kai's channel: Jo can leave it (the only owner of a channel with people in it cannot).
  const tides = await createChannelApi(server, workspaceId, kai.token, 'tides');
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${tides}/members`, jo.token);
  for (const text of ['High water at 14:10', 'Low at 20:25']) {
    await server.api('POST', `/api/institutions/${workspaceId}/channels/${tides}/messages`, kai.token, {
      content: `<p>${text}</p>`,
      genId: crypto.randomUUID(),
    });
  }
  const badge = sidebarChannel(page, 'tides').getByTestId('unread-count');
  await expect(badge).toHaveText('2');
  const membership = async () =>
    (
      await server.api<Joined>('GET', `/api/institutions/${workspaceId}/channels/joined`, jo.token)
    ).channelMembers.find((m) => m.channelId === tides);

  const menu = async () => {
    await sidebarChannel(page, 'tides').hover();
    await page.getByRole('button', { name: 'tides options' }).click();
    return page.getByRole('menu');
  };

  // Mark as read, without opening it: here at once, and on the server (a reload keeps it read).
  await (await menu()).getByRole('menuitem', { name: 'Mark as read' }).click();
  await expect(badge).toHaveCount(0);
  await expect.poll(async () => (await membership())?.unreadCount).toBe(0);
  await page.reload();
  await expect(sidebarChannel(page, 'tides')).toBeVisible();
  await expect(badge).toHaveCount(0);

  // Mute, then the menu offers Unmute.
  const open = await menu();
  await expect(open.getByRole('menuitem', { name: 'Mark as read' })).toBeDisabled();
  await shot(page, `${SHOTS}/channel-row-menu-desktop.png`);
  await open.getByRole('menuitem', { name: 'Mute' }).click();
  await expect(page.getByText('#tides is muted')).toBeVisible();
  await expect.poll(async () => (await membership())?.muted).toBe(true);
  await expect((await menu()).getByRole('menuitem', { name: 'Unmute' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Copy link: the channel's address, which opens it.
  await (await menu()).getByRole('menuitem', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${server.url}/client/${workspaceId}/channel/${tides}`);

  // Leave: gone from the sidebar and from the server's list.
  await (await menu()).getByRole('menuitem', { name: 'Leave #tides' }).click();
  await expect(sidebarChannel(page, 'tides')).toHaveCount(0);
  await expect.poll(async () => (await membership())?.channelId).toBeUndefined();
  // #general is a default channel: it cannot be left.
  await sidebarChannel(page, 'general').hover();
  await page.getByRole('button', { name: 'general options' }).click();
  await expect(page.getByRole('menuitem', { name: /^Leave/ })).toHaveCount(0);
});
