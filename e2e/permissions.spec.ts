// Issue 3 (12a, 12b): channel roles and private-channel requests, each person in their own browser.
// (a) An owner makes a private channel, adds a member and gives them a role without canPost (the
// default role no longer grants it either): the member's composer is closed with the reason shown.
// (b) The member asks to join another private channel from a link; the owner, with the channel's
// Requests tab open, sees the request arrive and approves it; the member sees the channel appear.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate, createChannelApi, type Teammate } from './support/team.ts';
import { type Browser, expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, sidebarChannel, signInThroughUi } from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };

const server = specServer();
let workspaceId: string;
let adaPage: Page;
let tomasPage: Page;
let ada: { token: string };
let tomas: Teammate;

async function openPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return await context.newPage();
}

test.beforeAll(async ({ browser }) => {
  adaPage = await openPage(browser);
  await signInThroughUi(adaPage, server, 'ada@example.com');
  workspaceId = await createWorkspaceThroughUi(adaPage, 'Harbour Ops');
  ada = await server.signInApi('ada@example.com');
  await server.api('PUT', '/api/users', ada.token, { name: 'Ada Lovelace' });
  tomas = await addTeammate(server, workspaceId, ada.token, 'tomas@example.com', 'Tomas Berg');
  tomasPage = await openPage(browser);
  await signInThroughUi(tomasPage, server, 'tomas@example.com');
  await expect(tomasPage).toHaveURL(new RegExp(`/client/${workspaceId}`));
});

test.afterAll(async () => {
  await adaPage?.context().close();
  await tomasPage?.context().close();
});

function details(page: Page, channel: string) {
  return page.getByRole('dialog', { name: channel });
}

test('a member given a role without canPost finds the composer closed, with the reason', async () => {
  // Ada creates #night-shift, private, through the UI.
  await adaPage.getByRole('button', { name: 'Create channel' }).click();
  await adaPage.getByLabel('Name').fill('night-shift');
  await adaPage.getByText('Private', { exact: true }).click();
  await adaPage.getByRole('button', { name: 'Create channel' }).last().click();
  await expect(adaPage).toHaveTitle('#night-shift - Lantern');
  const channelId = /\/channel\/([^/?#]+)/.exec(adaPage.url())?.[1] ?? '';

  // Channel details → Members → Add: Tomas.
  await adaPage.getByRole('button', { name: 'Channel details' }).click();
  const panel = details(adaPage, 'night-shift');
  await panel.getByRole('tab', { name: /Members/ }).click();
  await panel.getByRole('button', { name: 'Add' }).click();
  const add = adaPage.getByRole('dialog', { name: 'Add people to #night-shift' });
  await add.getByRole('checkbox', { name: /Tomas Berg/ }).check();
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(panel.getByRole('list', { name: 'Channel members' }).getByText('Tomas Berg')).toBeVisible();

  // Roles: the default role stops granting posts; a new "Readers" role without canPost goes to Tomas.
  await panel.getByRole('tab', { name: 'Roles' }).click();
  await panel.getByRole('button', { name: /Everyone \(default role\)/ }).click();
  const everyonePost = panel.getByRole('switch', { name: 'Post messages' });
  await everyonePost.click();
  await expect(everyonePost).toHaveAttribute('aria-checked', 'false');
  await panel.getByRole('button', { name: /Everyone \(default role\)/ }).click();

  await panel.getByRole('button', { name: 'New role' }).click();
  const create = adaPage.getByRole('dialog', { name: 'New role in #night-shift' });
  await create.getByLabel('Role name').fill('Readers');
  await create.getByRole('switch', { name: 'Post messages' }).click();
  await expect(create.getByRole('switch', { name: 'Post messages' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await create.getByRole('button', { name: 'Create role' }).click();
  await expect(create).toBeHidden();
  await panel.getByRole('button', { name: /^Readers/ }).click();
  await panel.getByRole('checkbox', { name: 'Readers: Tomas Berg' }).click();
  await expect(panel.getByRole('checkbox', { name: 'Readers: Tomas Berg' })).toBeChecked();
  await shot(adaPage, `${ARTIFACTS}/channel-roles-desktop.png`);

  // The server agrees: Tomas holds Readers, which does not allow posting.
  await expect
    .poll(async () => {
      const roles = await server.api<{ data: { id: string; name: string; canPost: boolean }[] }>(
        'GET',
        `/api/institutions/${workspaceId}/channels/${channelId}/roles`,
        ada.token,
      );
      const readers = roles.data.find((r) => r.name === 'Readers');
      const members = await server.api<{
        data: { member: { id: string }; channelMember: { roles: string[] } }[];
      }>('GET', `/api/institutions/${workspaceId}/channels/${channelId}/members`, ada.token);
      const mine = members.data.find((m) => m.member.id === tomas.memberId);
      return readers && !readers.canPost && mine?.channelMember.roles.includes(readers.id);
    })
    .toBe(true);

  // Tomas opens the channel: no textbox, the reason instead.
  await tomasPage.goto(`${server.url}/client/${workspaceId}/channel/${channelId}`);
  await expect(tomasPage.getByRole('heading', { name: 'night-shift', exact: true })).toBeVisible();
  await expect(tomasPage.getByTestId('composer-disabled')).toHaveText(
    "You don't have permission to post in this channel",
  );
  await expect(tomasPage.getByRole('textbox', { name: 'Message #night-shift' })).toHaveCount(0);
  await shot(tomasPage, `${ARTIFACTS}/composer-closed-desktop.png`);
  await adaPage.keyboard.press('Escape');
});

test('a request to join a private channel is approved live and the channel appears', async () => {
  const channelId = await createChannelApi(server, workspaceId, ada.token, 'leadership', 'private');

  // Ada has #leadership's Requests tab open before anyone asks.
  await adaPage.goto(`${server.url}/client/${workspaceId}/channel/${channelId}`);
  await expect(adaPage.getByRole('heading', { name: 'leadership', exact: true })).toBeVisible();
  await adaPage.getByRole('button', { name: 'Channel details' }).click();
  const panel = details(adaPage, 'leadership');
  await panel.getByRole('tab', { name: /Requests/ }).click();
  await expect(panel.getByText('No requests waiting')).toBeVisible();

  // A link to a channel that is not there says so, and offers no join request.
  await tomasPage.goto(`${server.url}/client/${workspaceId}/channel/0190d0e4-0000-7000-8000-000000000000`);
  await expect(tomasPage.getByRole('heading', { name: 'Channel not found' })).toBeVisible();
  await expect(tomasPage.getByRole('button', { name: 'Request to join' })).toHaveCount(0);
  await shot(tomasPage, `${ARTIFACTS}/channel-not-found-desktop.png`);
  // Within the page (no load), the same bad address shows the 404 screen, and Back shows the screen before
  // it again, not the error.
  await tomasPage.evaluate(() => {
    history.pushState(null, '', `${location.pathname.replace(/[^/]+$/, '')}not%20a%20channel`);
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(tomasPage.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await tomasPage.goBack();
  await expect(tomasPage.getByRole('heading', { name: 'Channel not found' })).toBeVisible();
  await expect(tomasPage.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
  // An address that is no channel id fails route validation: the 404 screen (spec §2).
  await tomasPage.goto(`${server.url}/client/${workspaceId}/channel/not%20a%20channel`);
  await expect(tomasPage.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  // A workspace he is not in: after asking the server for his list (it may be one joined on another
  // device), the 404 screen.
  await tomasPage.goto(`${server.url}/client/0190d0e4-0000-7000-8000-000000000000`);
  await expect(tomasPage.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  // An unknown route goes to /, which opens the selected workspace.
  await tomasPage.goto(`${server.url}/no-such-page`);
  await expect(tomasPage).toHaveURL(new RegExp(`/client/${workspaceId}`));

  // Tomas follows a link to it: the gate asks for a reason.
  await tomasPage.goto(`${server.url}/client/${workspaceId}/channel/${channelId}`);
  await expect(tomasPage.getByRole('heading', { name: 'This channel is private' })).toBeVisible();
  await expect(sidebarChannel(tomasPage, 'leadership')).toHaveCount(0);
  await tomasPage.getByLabel(/Why would you like to join/).fill('I cover the weekend handover');
  await tomasPage.getByRole('button', { name: 'Request to join' }).click();
  await expect(tomasPage.getByTestId('request-pending')).toBeVisible();
  await shot(tomasPage, `${ARTIFACTS}/join-request-desktop.png`);

  // The request reaches Ada's open panel without a reload; she approves it.
  const request = panel.getByRole('list', { name: 'Join requests' }).getByRole('listitem');
  await expect(request).toContainText('Tomas Berg');
  await expect(request).toContainText('I cover the weekend handover');
  await shot(adaPage, `${ARTIFACTS}/channel-requests-desktop.png`);
  await panel.getByRole('button', { name: 'Approve Tomas Berg' }).click();
  await expect(panel.getByText('No requests waiting')).toBeVisible();

  // Tomas: a toast, the channel in his sidebar and its composer, all without a reload.
  await expect(tomasPage.getByText('Your request to join #leadership was approved')).toBeVisible();
  await expect(sidebarChannel(tomasPage, 'leadership')).toBeVisible();
  await expect(tomasPage.getByRole('textbox', { name: 'Message #leadership' })).toBeVisible();
});
