// Issue 3 (12c): a channel moves to a new section (row menu) and another is dragged in above it; the
// order survives a reload and reaches the server. Screenshots of the sidebar with sections, the
// directory and a member profile at desktop and phone width.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { addChannelsOnly, seedTeam } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  openChannelFromSidebar,
  sidebarChannel,
  signInThroughUi,
} from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

const server = specServer();

/** A channel's row in the sidebar (the link and its options button). */
function channelRow(page: Page, name: string) {
  return page
    .getByRole('navigation', { name: 'Workspace' })
    .locator('li[data-channel-id]')
    .filter({ has: page.getByRole('link', { name: new RegExp(`^${name}\\b`) }) });
}

function section(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Workspace' }).getByRole('region', { name });
}

async function channelNames(page: Page, sectionName: string): Promise<string[]> {
  return (await section(page, sectionName).getByRole('link').allTextContents()).map((t) => t.trim());
}

test('a channel moved to a new section keeps its place after a reload', async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Northwind Ops');
  const ada = await server.signInApi('ada@example.com');
  await server.api('PUT', '/api/users', ada.token, { name: 'Ada Lovelace' });
  const ids = await addChannelsOnly(server, workspaceId, ada.token, [
    'design',
    'deploys',
    'incidents',
    'random',
  ]);
  await seedTeam(
    server,
    workspaceId,
    ada.token,
    [ids.design, ids.deploys].filter((id) => id !== undefined),
  );

  await page.reload();
  await expect(sidebarChannel(page, 'deploys')).toBeVisible();
  await openChannelFromSidebar(page, 'general');

  // Row menu → Move to section → New section…: the channel lands in the new section.
  const deploys = channelRow(page, 'deploys');
  await deploys.hover();
  await page.getByRole('button', { name: 'deploys options' }).click();
  await page.getByRole('menuitem', { name: 'Move to section' }).click();
  await page.getByRole('menuitem', { name: 'New section…' }).click();
  await page.getByLabel('Section name').fill('Projects');
  await page.getByRole('button', { name: 'Create section' }).click();
  await expect(section(page, 'Projects')).toBeVisible();
  await expect.poll(() => channelNames(page, 'Projects')).toEqual(['deploys']);

  // Drag #design onto the top half of #deploys: it goes above it.
  const design = channelRow(page, 'design');
  const target = section(page, 'Projects').locator('li[data-channel-id]').first();
  await design.dragTo(target, { targetPosition: { x: 40, y: 3 } });
  await expect.poll(() => channelNames(page, 'Projects')).toEqual(['design', 'deploys']);
  await expect.poll(() => channelNames(page, 'Channels')).toEqual(['general', 'incidents', 'random']);

  // The server has the same layout (the change went out through the outbox).
  await expect
    .poll(async () => {
      const res = await server.api<{ data: { name: string; channels: string[] }[] }>(
        'GET',
        `/api/institutions/${workspaceId}/channels/sections`,
        ada.token,
      );
      return res.data.find((s) => s.name === 'Projects')?.channels.length;
    })
    .toBe(2);

  await page.reload();
  await expect.poll(() => channelNames(page, 'Projects')).toEqual(['design', 'deploys']);
  await expect.poll(() => channelNames(page, 'Channels')).toEqual(['general', 'incidents', 'random']);

  // Collapsing is remembered on this device.
  await section(page, 'Projects').getByRole('button', { name: 'Projects', exact: true }).click();
  await expect(section(page, 'Projects').getByRole('link')).toHaveCount(0);
  await page.reload();
  await expect(
    section(page, 'Projects').getByRole('button', { name: 'Projects', exact: true }),
  ).toHaveAttribute('aria-expanded', 'false');
  await section(page, 'Projects').getByRole('button', { name: 'Projects', exact: true }).click();
  await expect.poll(() => channelNames(page, 'Projects')).toEqual(['design', 'deploys']);

  // Artifacts: the sidebar with sections, the directory and a member profile, desktop then phone.
  await openChannelFromSidebar(page, 'design');
  await shot(page, `${ARTIFACTS}/sidebar-sections-desktop.png`);
  await page.getByRole('link', { name: 'Directory' }).click();
  await expect(page).toHaveTitle('Directory - Lantern');
  await expect(page.getByRole('list', { name: 'Members' }).getByRole('listitem')).toHaveCount(6);
  await expect(page.getByText('6 members · 1 online')).toBeVisible();
  await shot(page, `${ARTIFACTS}/directory-desktop.png`);
  await page.getByRole('link', { name: /^Grace Hopper,/ }).click();
  await expect(page).toHaveTitle('Grace Hopper - Lantern');
  await expect(page.getByRole('button', { name: 'Message', exact: true })).toBeVisible();
  await shot(page, `${ARTIFACTS}/profile-desktop.png`);
  // The same two pages in the dark scheme, to keep both looks honest.
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, `${ARTIFACTS}/profile-dark-desktop.png`);
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Directory' }).click();
  await expect(page).toHaveTitle('Directory - Lantern');
  await shot(page, `${ARTIFACTS}/directory-dark-desktop.png`);
  await page.emulateMedia({ colorScheme: 'light' });

  await page.setViewportSize(PHONE);
  await page.goto(`${server.url}/client/${workspaceId}`);
  await expect(section(page, 'Projects')).toBeVisible();
  await shot(page, `${ARTIFACTS}/sidebar-sections-phone.png`);
  await page.goto(`${server.url}/client/${workspaceId}/directory`);
  await expect(page.getByRole('list', { name: 'Members' }).getByRole('listitem')).toHaveCount(6);
  await expect(page.getByText('6 members · 1 online')).toBeVisible();
  await shot(page, `${ARTIFACTS}/directory-phone.png`);
  await page.getByRole('link', { name: /^Grace Hopper,/ }).click();
  await expect(page.getByRole('button', { name: 'Message', exact: true })).toBeVisible();
  await shot(page, `${ARTIFACTS}/profile-phone.png`);

  // "Message" on a profile starts a direct message.
  await page.getByRole('button', { name: 'Message', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Message Grace Hopper' })).toBeVisible();
  await context.close();
});
