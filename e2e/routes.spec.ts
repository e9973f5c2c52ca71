// Spec §2's routing rules, walked as a person meets them: joining a channel from "Browse channels" opens
// it; / reopens the workspace's last channel; an unknown path goes to / (and so to that channel); the short
// paths /client/directory, /client/profile and /client/drafts open the selected workspace's pages; leaving
// a workspace from one of its channels goes to /, which opens the workspace still there.
import { specServer } from './support/spec-server.ts';
import { addTeammate, createChannelApi } from './support/team.ts';
import { expect, test } from './support/test.ts';
import { composer, createWorkspaceThroughUi, openChannelFromSidebar, signInThroughUi } from './support/ui.ts';

const server = specServer();

test('joining, /, unknown and short paths, and leaving a workspace go where spec §2 says', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'ada@example.com');
  const harbour = await createWorkspaceThroughUi(page, 'Harbour');
  const ada = await server.signInApi('ada@example.com');
  const grace = await addTeammate(server, harbour, ada.token, 'grace@example.com', 'Grace Hopper');
  const tides = await createChannelApi(server, harbour, grace.token, 'tide-tables');
  const tidesPath = `/client/${harbour}/channel/${tides}`;
  const at = (path: string) => expect(page).toHaveURL((url) => url.pathname === path);

  // Joining a channel goes to it.
  await page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('button', { name: 'Browse channels' })
    .click();
  await page
    .getByRole('dialog', { name: 'Browse channels' })
    .getByRole('button', { name: 'Join tide-tables' })
    .click();
  await at(tidesPath);
  await expect(composer(page, '#tide-tables')).toBeEditable();

  // / with a workspace selected: that workspace, at its last channel.
  await page.goto(`${server.url}/`);
  await at(tidesPath);
  await expect(composer(page, '#tide-tables')).toBeVisible();
  // An unknown route goes to /, and from there to the same place.
  await page.goto(`${server.url}/no/such/page`);
  await at(tidesPath);

  // The short paths take the selected workspace.
  for (const short of ['directory', 'profile', 'drafts']) {
    await page.goto(`${server.url}/client/${short}`);
    await at(`/client/${harbour}/${short}`);
  }

  // A second workspace, Grace's, which Ada joins and then leaves from its channel.
  const lighthouse = (
    await server.api<{ institution: { id: string } }>('POST', '/api/institutions', grace.token, {
      name: 'Lighthouse',
    })
  ).institution.id;
  await server.api('POST', `/api/institutions/${lighthouse}/invited-members`, grace.token, {
    emails: ['ada@example.com'],
  });
  await server.api('POST', `/api/institutions/${lighthouse}/members`, ada.token);
  await page.goto(`${server.url}/client/${lighthouse}`);
  await openChannelFromSidebar(page, 'general');
  const switcher = page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('button', { name: /Lighthouse/ });
  await switcher.click();
  await page.getByRole('menuitem', { name: 'Leave Lighthouse' }).click();
  await page
    .getByRole('dialog', { name: 'Leave Lighthouse?' })
    .getByRole('button', { name: 'Leave workspace' })
    .click();
  // To /, which opens the workspace still selectable, at its own last channel.
  await at(tidesPath);
  await page
    .getByRole('navigation', { name: 'Workspace' })
    .getByRole('button', { name: /Harbour/ })
    .click();
  await expect(page.getByRole('menuitem', { name: 'Harbour', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Lighthouse', exact: true })).toHaveCount(0);
});
