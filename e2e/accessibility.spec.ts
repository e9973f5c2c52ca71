// Issue 15 item 10: axe (a tool nobody here wrote) finds no moderate, serious or critical violation on the
// screens a person uses most — sign-in, a channel with messages, directory, settings, agents settings,
// workspace settings, activity and search — light and dark, desktop and phone. Colour contrast is among its
// serious rules; every screen's content within a landmark (a main one on phones too) among its moderate ones.
import { violations } from './support/accessibility.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import { createWorkspaceThroughUi, messageList, signInThroughUi } from './support/ui.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const server = specServer();
const IMPACTS = ['moderate', 'serious', 'critical'];

// One signed-in page and workspace for every look: each look is its own test, so each has its own time limit.
let page: Page;
let screens: [string, string, () => Promise<void>][] = [];

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext()).newPage();
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Contrast Co');
  const ada = await server.signInApi('ada@example.com');
  const general = (
    await server.api<{ channels: { id: string; name: string }[] }>(
      'GET',
      `/api/institutions/${workspaceId}/channels/joined`,
      ada.token,
    )
  ).channels.find((c) => c.name === 'general');
  if (!general) throw new Error('no #general');
  // People with names (avatars of several colours), a mention and a reply for the activity feed.
  const names = ['Grace Hopper', 'Tomas Berg', 'Mira Okafor', 'Linus Park', 'Yuki Tanaka', 'Ravi Shah'];
  const mates = [];
  for (const [i, name] of names.entries())
    mates.push(await addTeammate(server, workspaceId, ada.token, `mate${i}@example.com`, name));
  const adaMember = (
    await server.api<{ data: { id: string; email: string }[] }>(
      'GET',
      `/api/institutions/${workspaceId}/members`,
      ada.token,
    )
  ).data.find((m) => m.email === 'ada@example.com');
  for (const [i, mate] of mates.entries()) {
    await server.api('POST', `/api/institutions/${workspaceId}/channels/${general.id}/messages`, mate.token, {
      content:
        i === 0
          ? '<p>@ada the harbour plan is ready</p>'
          : `<p>Message ${i + 1} about the harbour plan, with <strong>some</strong> <a href="https://example.com">link</a></p>`,
      genId: crypto.randomUUID(),
      ...(i === 0 && adaMember ? { mentions: [{ type: 'member', id: adaMember.id }] } : {}),
    });
  }

  // A pending invitation, so the workspace settings screen shows its list rather than the empty state.
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, ada.token, {
    emails: ['pending@example.com'],
  });

  const base = `${server.url}/client/${workspaceId}`;
  screens = [
    ['channel', `${base}/channel/${general.id}`, () => expect(messageList(page).last()).toBeVisible()],
    ['directory', `${base}/directory`, () => expect(page.getByText('Grace Hopper').first()).toBeVisible()],
    ['settings', `${base}/settings`, () => expect(page.getByText('Show channels')).toBeVisible()],
    [
      'agents settings',
      `${base}/settings/agents`,
      () => expect(page.getByRole('heading').first()).toBeVisible(),
    ],
    [
      'workspace settings',
      `${base}/settings/workspace`,
      () => expect(page.getByRole('listitem', { name: 'pending@example.com' })).toBeVisible(),
    ],
    [
      'activity',
      `${base}/activity`,
      () => expect(page.getByRole('list', { name: 'Activity' })).toBeVisible(),
    ],
    [
      'search',
      `${base}/search?q=harbour`,
      () => expect(page.getByText(/about the harbour plan/).first()).toBeVisible(),
    ],
  ];
});

test.afterAll(async () => {
  await page?.context().close();
});

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the main screens have no moderate, serious or critical axe violation: ${label}, ${scheme}`, async () => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      const found: string[] = [];
      for (const [name, url, ready] of screens) {
        await page.goto(url);
        await ready();
        for (const v of await violations(page, { impacts: IMPACTS })) found.push(`${name}: ${v}`);
      }
      expect(found).toEqual([]);
    });
  }
}

test('the sign-in page has no moderate, serious or critical axe violation, light and dark, desktop and phone', async ({
  browser,
}) => {
  const signedOut = await browser.newContext();
  const signIn = await signedOut.newPage();
  const found: string[] = [];
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await signIn.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await signIn.emulateMedia({ colorScheme: scheme });
      await signIn.goto(`${server.url}/signin`);
      await expect(signIn.getByLabel('E-mail')).toBeVisible();
      for (const v of await violations(signIn, { impacts: IMPACTS })) found.push(`${label}, ${scheme}: ${v}`);
    }
  }
  await signedOut.close();
  expect(found).toEqual([]);
});
