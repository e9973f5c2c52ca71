// Workspace settings (issue 15 item 8, decision 0054): an owner reaches them from the workspace menu,
// renames the workspace (seen in the sidebar after a reload, a blank name refused beside the field), sets
// and removes its picture,
// invites from the screen, resends an invitation (another e-mail goes out) and revokes one and then
// several (the revoked invitee can no longer accept), makes a channel default (the existing member is put
// in it and a newly joined one is in it) and creates a default channel. A plain member sees no entry and
// gets the refusal at the address. Screenshots desktop and phone, light and dark.
import { readdir } from 'node:fs/promises';
import { samplePng } from './support/sample-files.ts';
import { SHOTS_ON, shot } from './support/screenshots.ts';
import { ApiFailure } from './support/server.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate, createChannelApi } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const SHOTS = 'test-results/workspace-settings';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const server = specServer();

async function shoot(page: Page, name: string, fullPage = false) {
  if (!SHOTS_ON) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(200);
    await shot(page, `${SHOTS}/${name}-${scheme}.png`, { fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** How many mails have gone to `email` (the server writes one file per mail, named with the address). */
async function mailsTo(email: string): Promise<number> {
  const names = await readdir(server.mailDir).catch(() => [] as string[]);
  return names.filter((n) => n.includes(`-${email}-`)).length;
}

async function joinedChannelNames(workspaceId: string, token: string): Promise<string[]> {
  const joined = await server.api<{ channels: { name: string; type: string }[] }>(
    'GET',
    `/api/institutions/${workspaceId}/channels/joined`,
    token,
  );
  return joined.channels
    .filter((c) => c.type !== 'direct_message')
    .map((c) => c.name)
    .sort();
}

const workspaceMenu = (page: Page) =>
  page.getByRole('navigation', { name: 'Workspace' }).getByRole('button').first();

test('an owner renames the workspace, manages invitations and default channels', async ({ browser }) => {
  test.slow(); // several browsers or many steps: three times the default limit
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signInThroughUi(page, server, 'olga@example.com');
  const step = page.getByRole('form', { name: 'What should people call you?' });
  await step.getByLabel('Your name').fill('Olga Lind');
  await step.getByRole('button', { name: 'Save' }).click();
  const workspaceId = await createWorkspaceThroughUi(page, 'Lighthouse');
  const owner = await server.signInApi('olga@example.com');
  const pat = await addTeammate(server, workspaceId, owner.token, 'pat@example.com', 'Pat Reyes');
  await createChannelApi(server, workspaceId, owner.token, 'projects');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, owner.token, {
    emails: ['ines@example.com'],
  });

  // The ways in: the settings page, and the workspace menu beside "Invite people".
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await expect(page.getByRole('link', { name: /Workspace settings/ })).toHaveAttribute(
    'href',
    `/client/${workspaceId}/settings/workspace`,
  );
  await workspaceMenu(page).click();
  await page.getByRole('menuitem', { name: 'Workspace settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${workspaceId}/settings/workspace$`));
  await expect(page.getByRole('heading', { name: 'Workspace settings', level: 1 })).toBeVisible();

  // Name: a blank one is refused beside the field; a new one is saved and seen in the sidebar.
  const name = page.getByLabel('Workspace name');
  await expect(name).toHaveValue('Lighthouse');
  await name.fill('  ');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Enter the name people will see')).toBeVisible();
  await name.fill('Lighthouse Crew');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Workspace renamed')).toBeVisible();
  await page.reload();
  await expect(workspaceMenu(page)).toContainText('Lighthouse Crew');
  await expect(page.getByLabel('Workspace name')).toHaveValue('Lighthouse Crew');

  // Picture: chosen from the device, saved at once, shown in the workspace menu (after a reload too) and
  // to the teammate; Remove brings the initials back.
  await expect(workspaceMenu(page).locator('img')).toHaveCount(0);
  await page.getByLabel('Choose a workspace picture').setInputFiles({
    name: 'lighthouse.png',
    mimeType: 'image/png',
    buffer: samplePng(120, 80),
  });
  await expect(page.getByText('Workspace picture saved')).toBeVisible();
  await page.reload();
  await expect(workspaceMenu(page).locator('img')).toHaveAttribute('src', /^data:image\/(webp|jpeg);base64,/);
  const seenByPat = await server.api<{ data: { id: string; picture?: string | null }[] }>(
    'GET',
    '/api/institutions',
    pat.token,
  );
  expect(seenByPat.data.find((i) => i.id === workspaceId)?.picture).toMatch(/^data:image\//);
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Workspace picture removed')).toBeVisible();
  await expect(workspaceMenu(page).locator('img')).toHaveCount(0);
  await page.getByLabel('Choose a workspace picture').setInputFiles({
    name: 'lighthouse.png',
    mimeType: 'image/png',
    buffer: samplePng(120, 80),
  });
  await expect(page.getByRole('button', { name: 'Change' })).toBeVisible();

  // Pending invitations: the one sent over the API, with who sent it; and one more from the invite dialog.
  const invitations = page.getByRole('region', { name: 'Pending invitations' });
  const ines = invitations.getByRole('listitem', { name: 'ines@example.com' });
  await expect(ines).toContainText('Invited by Olga Lind');
  await invitations.getByRole('button', { name: 'Invite people' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite people to Lighthouse Crew' });
  await dialog.getByLabel('E-mail addresses').pressSequentially('joao@example.com,kim@example.com,');
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(dialog).toBeHidden();
  await expect(invitations.getByRole('listitem')).toHaveCount(3);
  await expect(invitations).toContainText('3 pending');
  await shoot(page, 'screen-desktop', true);
  if (SHOTS_ON) {
    // The phone layout mounts the screen anew: scroll to the region once it is the new one.
    await page.setViewportSize(PHONE);
    await expect(async () => invitations.scrollIntoViewIfNeeded({ timeout: 1000 })).toPass();
    await shoot(page, 'invitations-phone');
    await page.setViewportSize(DESKTOP);
  }

  // Resend: another e-mail goes to the same address.
  const before = await mailsTo('ines@example.com');
  await ines.getByRole('button', { name: 'Resend invitation to ines@example.com' }).click();
  await expect(page.getByText('Invitation sent again to ines@example.com')).toBeVisible();
  await expect.poll(() => mailsTo('ines@example.com')).toBe(before + 1);

  // Revoke one, after confirming; the invitee then cannot accept it.
  await ines.getByRole('button', { name: 'Revoke invitation to ines@example.com' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this invitation?' });
  await expect(confirm).toContainText('ines@example.com will no longer be able to join with it.');
  await shoot(page, 'revoke-one-desktop');
  await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
  // The dialog closes once the server has revoked it. Until then the page behind the modal dialog is
  // hidden from role queries, so `ines` alone read as gone at once and the join below raced the revoke.
  await expect(confirm).toBeHidden();
  await expect(ines).toBeHidden();
  const inesSession = await server.signInApi('ines@example.com');
  const refused = await server
    .api('POST', `/api/institutions/${workspaceId}/members`, inesSession.token)
    .catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(ApiFailure);
  expect((refused as ApiFailure).status).toBe(403);

  // Revoke several: select both, one confirmation, then the empty state.
  await invitations.getByRole('checkbox', { name: 'Select joao@example.com' }).check();
  await invitations.getByRole('checkbox', { name: 'Select kim@example.com' }).check();
  await expect(invitations).toContainText('2 selected');
  await invitations.getByRole('button', { name: 'Revoke selected' }).click();
  const several = page.getByRole('dialog', { name: 'Revoke 2 invitations?' });
  await shoot(page, 'revoke-several-desktop');
  await several.getByRole('button', { name: 'Revoke 2 invitations' }).click();
  await expect(invitations.getByText('No pending invitations')).toBeVisible();
  await expect(invitations.getByRole('button', { name: 'Invite people' })).toBeVisible();

  // Default channels: #general stays default; #projects becomes one after confirming, and Pat, already a
  // member of the workspace, is put in it.
  const defaults = page.getByRole('region', { name: 'Default channels' });
  const general = defaults.getByRole('switch', { name: 'general' });
  await expect(general).toBeChecked();
  await expect(general).toBeDisabled();
  const projects = defaults.getByRole('switch', { name: 'projects' });
  await expect(projects).not.toBeChecked();
  expect(await joinedChannelNames(workspaceId, pat.token)).toEqual(['general']);
  await projects.click();
  const make = page.getByRole('dialog', { name: 'Make #projects a default channel?' });
  await expect(make).toContainText('Everyone in this workspace (2 people) will be added to it now');
  await shoot(page, 'make-default-desktop');
  await make.getByRole('button', { name: 'Make default' }).click();
  await expect(projects).toBeChecked();
  expect(await joinedChannelNames(workspaceId, pat.token)).toEqual(['general', 'projects']);

  // A new default channel from the screen: a bad name is refused beside the field, a good one created.
  const newChannel = defaults.getByLabel('New default channel');
  await newChannel.fill('hand/book');
  await defaults.getByRole('button', { name: 'Create default channel' }).click();
  await expect(defaults.getByText('Use letters, numbers, spaces, - and _')).toBeVisible();
  await newChannel.fill('handbook');
  await defaults.getByRole('button', { name: 'Create default channel' }).click();
  await expect(defaults.getByRole('switch', { name: 'handbook' })).toBeChecked();
  await expect(newChannel).toHaveValue('');

  // Someone who joins now is in every default channel.
  const quinn = await addTeammate(server, workspaceId, owner.token, 'quinn@example.com', 'Quinn Ade');
  expect(await joinedChannelNames(workspaceId, quinn.token)).toEqual(['general', 'handbook', 'projects']);

  // Not default again: its members stay, the next to join is not put in it.
  await defaults.getByRole('switch', { name: 'projects' }).click();
  await expect(page.getByText('#projects is no longer a default channel. Its members stay.')).toBeVisible();
  await expect(defaults.getByRole('switch', { name: 'projects' })).not.toBeChecked();
  const rosa = await addTeammate(server, workspaceId, owner.token, 'rosa@example.com', 'Rosa Lim');
  expect(await joinedChannelNames(workspaceId, rosa.token)).toEqual(['general', 'handbook']);
  expect(await joinedChannelNames(workspaceId, pat.token)).toEqual(['general', 'handbook', 'projects']);
  await shoot(page, 'screen-after-desktop', true);

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByLabel('Workspace name')).toHaveValue('Lighthouse Crew');
  await shoot(page, 'screen-phone');
  await defaults.scrollIntoViewIfNeeded();
  await shoot(page, 'default-channels-phone');
  await context.close();
});

test('a plain member sees no entry and is told who may change the settings', async ({ browser }) => {
  // A workspace of its own, so this test stands alone.
  const owner = await server.signInApi('pia@example.com');
  const { institution } = await server.api<{ institution: { id: string } }>(
    'POST',
    '/api/institutions',
    owner.token,
    { name: 'Quayside' },
  );
  const workspaceId = institution.id;
  const memberEmail = 'sam@example.com';
  await addTeammate(server, workspaceId, owner.token, memberEmail, 'Sam Reed');
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await signInThroughUi(page, server, memberEmail);
  await page.goto(`${server.url}/client/${workspaceId}`);
  await workspaceMenu(page).click();
  await expect(page.getByRole('menuitem', { name: 'Invite people' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Workspace settings' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Nor on the settings page, where admins find it too.
  await page.goto(`${server.url}/client/${workspaceId}/settings`);
  await expect(page.getByRole('link', { name: /Agents/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Workspace settings/ })).toHaveCount(0);

  await page.goto(`${server.url}/client/${workspaceId}/settings/workspace`);
  await expect(page.getByText('Only workspace admins can change these settings.')).toBeVisible();
  await expect(page.getByLabel('Workspace name')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Pending invitations' })).toHaveCount(0);
  await shoot(page, 'refusal-phone');
  await context.close();
});
