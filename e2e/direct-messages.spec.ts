// The Direct messages list puts the latest conversation first (decision 0083): a message arriving in an
// older conversation moves it to the top at once, and a reload keeps that order.
import { specServer } from './support/spec-server.ts';
import { addTeammate, postMessageApi } from './support/team.ts';
import { expect, test } from './support/test.ts';
import { createWorkspaceThroughUi, signInThroughUi } from './support/ui.ts';

const server = specServer();

test('the latest conversation comes first in Direct messages, live and after a reload', async ({ page }) => {
  await signInThroughUi(page, server, 'mira@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Ops');
  const mira = await server.signInApi('mira@example.com');
  const members = await server.api<{ data: { id: string; email: string }[] }>(
    'GET',
    `/api/institutions/${workspaceId}/members`,
    mira.token,
  );
  const miraId = members.data.find((m) => m.email === 'mira@example.com')?.id;
  const tomas = await addTeammate(server, workspaceId, mira.token, 'tomas@example.com', 'Tomas Berg');
  const linus = await addTeammate(server, workspaceId, mira.token, 'linus@example.com', 'Linus Park');
  const openWithMira = async (token: string) =>
    (
      await server.api<{ channel: { id: string } }>(
        'POST',
        `/api/institutions/${workspaceId}/channels/direct_messages`,
        token,
        { directMessageMemberId: miraId },
      )
    ).channel.id;
  const withTomas = await openWithMira(tomas.token);
  await postMessageApi(server, workspaceId, withTomas, tomas.token, 'Ship leaves at six');
  const withLinus = await openWithMira(linus.token);
  await postMessageApi(server, workspaceId, withLinus, linus.token, 'Crates are loaded');

  const directs = page.getByRole('region', { name: 'Direct messages' }).getByRole('link');
  // Linus wrote last.
  await expect(directs).toHaveText([/Linus Park/, /Tomas Berg/]);
  // Tomas writes again while Mira looks: his conversation moves up at once, against the order by name.
  await postMessageApi(server, workspaceId, withTomas, tomas.token, 'Make that seven');
  await expect(directs).toHaveText([/Tomas Berg/, /Linus Park/]);
  await page.reload();
  await expect(directs).toHaveText([/Tomas Berg/, /Linus Park/]);
});
