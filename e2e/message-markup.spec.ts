// Message markup in the browser (decision 0067): DOMPurify loads with the first message that is more
// than plain paragraphs. Until it has, such a message shows its words alone; then its formatting, its
// links opening in a new tab, and nothing another person's markup could run.
import { specServer } from './support/spec-server.ts';
import { addTeammate, joinedChannelId } from './support/team.ts';
import { expect, test } from './support/test.ts';
import { createWorkspaceThroughUi, messageList, signInThroughUi } from './support/ui.ts';

const server = specServer();

// Without the service worker, so the sanitiser's script comes over the network, where the test holds it.
test.use({ serviceWorkers: 'block' });

test('a formatted message shows its words at once and its formatting once the sanitiser has loaded', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Works');
  const ada = await server.signInApi('ada@example.com');
  const general = await joinedChannelId(server, workspaceId, ada.token, 'general');
  const grace = await addTeammate(server, workspaceId, ada.token, 'grace@example.com', 'Grace Hopper');
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${general}/messages`, grace.token, {
    content:
      '<p>The plan is <strong>ready</strong>, notes at example.org/plan and <a href="https://example.com/board">the board</a></p>' +
      '<p><em>Second</em> paragraph<img src="x" onerror="window.__ran = true"></p>',
    genId: crypto.randomUUID(),
  });

  // The sanitiser's script is held until the words have been seen without it.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/message-sanitizer-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });

  await page.goto(`${server.url}/client/${workspaceId}/channel/${general}`);
  const row = messageList(page).filter({ hasText: 'The plan is' });
  await expect(row).toContainText('The plan is ready, notes at example.org/plan and the board');
  await expect(row).toContainText('Second paragraph');
  await expect(row.locator('strong')).toHaveCount(0);
  await expect(row.getByRole('link')).toHaveCount(0);

  release();
  await expect(row.locator('strong')).toHaveText('ready');
  await expect(row.locator('em')).toHaveText('Second');
  const board = row.getByRole('link', { name: 'the board' });
  await expect(board).toHaveAttribute('href', 'https://example.com/board');
  await expect(board).toHaveAttribute('target', '_blank');
  await expect(board).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  // An address written in the text becomes a link too.
  await expect(row.getByRole('link', { name: 'example.org/plan' })).toHaveAttribute('target', '_blank');
  await expect(row.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
});
