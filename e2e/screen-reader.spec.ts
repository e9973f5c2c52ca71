// Decision 0077: a person who listens to the app. The channel's rows are a feed named after the
// conversation, and another person's message arriving is spoken once through a polite live region: read
// out while the list follows the newest, counted while the reader has scrolled up. Their own sends and the
// rows already there when the channel opens are not spoken. The feed's keys move between its articles.
import { specServer } from './support/spec-server.ts';
import { addTeammate, joinedChannelId, postMessageApi } from './support/team.ts';
import { expect, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

test('the messages are a named feed; arrivals are spoken once, counted when scrolled up', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Ops');
  await openChannelFromSidebar(page, 'general');
  const ada = await server.signInApi('ada@example.com');
  const generalId = await joinedChannelId(server, workspaceId, ada.token, 'general');
  const grace = await addTeammate(server, workspaceId, ada.token, 'grace@example.com', 'Grace Hopper');
  const post = (text: string) => postMessageApi(server, workspaceId, generalId, grace.token, text);

  const feed = page.getByRole('feed', { name: 'Messages in #general' });
  const spoken = page.locator('[data-arrivals]');
  await expect(spoken).toHaveAttribute('aria-live', 'polite');

  // One's own message is not news.
  await sendThroughUi(page, '#general', 'Morning, all');
  await expect(feed.getByRole('article').filter({ hasText: 'Morning, all' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );
  await expect(spoken).toHaveText('');

  // Another person's is read out with their name, without its markup.
  await server.api('POST', `/api/institutions/${workspaceId}/channels/${generalId}/messages`, grace.token, {
    content: '<p>The <strong>harbour</strong> plan is ready</p>',
    genId: crypto.randomUUID(),
  });
  await expect(spoken).toHaveText('Grace Hopper: The harbour plan is ready');
  // The same words twice are spoken twice: the region's text changes.
  await post('ok');
  await expect(spoken).toHaveText('Grace Hopper: ok');
  await post('ok');
  await expect(spoken).toHaveText('Grace Hopper: ok\u00a0');

  // Scrolled up, what arrives is counted, as the Jump to latest button counts it.
  for (let i = 1; i <= 30; i++) await post(`Tide table line ${i}`);
  await expect(messageList(page).filter({ hasText: 'Tide table line 30' })).toBeInViewport();
  await page.locator('[data-message-scroller]').evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
  await post('Crane two is down');
  await expect(spoken).toHaveText('1 new message below.');
  await post('Crane two is back');
  await expect(spoken).toHaveText('2 new messages below.');
  await expect(page.getByRole('button', { name: /Jump to latest.*2 new/ })).toBeVisible();

  // The feed holds the messages as articles, each named by its author.
  await expect(feed.getByRole('article', { name: /^Grace Hopper,/ }).last()).toContainText(
    'Crane two is back',
  );

  // The feed's keys: Page Up and Page Down between messages, Ctrl+End on to the composer.
  await page.getByRole('button', { name: /Jump to latest/ }).click();
  const last = feed.getByRole('article').last();
  await last.focus();
  await page.keyboard.press('PageUp');
  await expect(feed.getByRole('article').nth(-2)).toBeFocused();
  await expect(feed.getByRole('article').nth(-2)).toContainText('Crane two is down');
  await page.keyboard.press('PageDown');
  await expect(last).toBeFocused();
  await page.keyboard.press('Control+End');
  await expect(composer(page, '#general')).toBeFocused();

  // Opened again, the channel's rows are there and nothing is spoken for them.
  await page.reload();
  await expect(feed.getByRole('article').last()).toContainText('Crane two is back');
  await page.waitForTimeout(500);
  await expect(spoken).toHaveText('');
});

test('a direct message is named after the other person', async ({ page }) => {
  await signInThroughUi(page, server, 'lin@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Quay Office');
  const lin = await server.signInApi('lin@example.com');
  const grace = await addTeammate(server, workspaceId, lin.token, 'grace.quay@example.com', 'Grace Hopper');
  const dm = await server.api<{ channel: { id: string } }>(
    'POST',
    `/api/institutions/${workspaceId}/channels/direct_messages`,
    lin.token,
    { directMessageMemberId: grace.memberId },
  );
  await page.goto(`${server.url}/client/${workspaceId}/channel/${dm.channel.id}`);
  const feed = page.getByRole('feed', { name: 'Messages with Grace Hopper' });
  await expect(feed).toBeAttached();
  await postMessageApi(server, workspaceId, dm.channel.id, grace.token, 'Are you on the quay?');
  await expect(feed.getByRole('article').last()).toContainText('Are you on the quay?');
  await expect(page.locator('[data-arrivals]')).toHaveText('Grace Hopper: Are you on the quay?');
});
