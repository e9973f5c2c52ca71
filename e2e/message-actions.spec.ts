// Issue 4 end to end: with the server stopped Ada reacts, replies, edits, pins, votes in a poll and
// stars; she searches the messages on her device meanwhile. When the server is back Grace (a second
// browser) sees every change exactly once, and the API agrees. Then a busy channel (mentions, an image
// and a PDF with previews) is photographed at desktop and phone width.
import AxeBuilder from '@axe-core/playwright';
import { samplePdf, samplePng } from './support/sample-files.ts';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate, joinedChannelId } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

const server = specServer();

interface StoredMessage {
  genId: string;
  content: string;
  replyTo: string | null;
  editedAt: string | null;
  deletedAt: string | null;
  isPinned: boolean;
  reactions: { emoji: string; count: number; memberIds: string[] }[];
  poll: { question: string; options: { text: string; votes: number }[] } | null;
  attachments: { fileName: string }[];
  id: string;
}

function row(page: Page, text: string) {
  return messageList(page).filter({ hasText: text });
}

async function moreAction(page: Page, text: string, item: string) {
  const message = row(page, text).first();
  await message.hover();
  await message.getByRole('button', { name: 'More message actions' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('reactions, a reply, an edit, a pin, a vote and a star made offline arrive once; search works offline', async ({
  browser,
}) => {
  // Two browsers, a server restart and two uploads: more than the default limit on a busy machine.
  test.slow();
  const ada = await browser.newContext({ viewport: DESKTOP });
  const adaPage = await ada.newPage();
  await signInThroughUi(adaPage, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(adaPage, 'Harbour Ops');
  await openChannelFromSidebar(adaPage, 'general');

  const adaApi = await server.signInApi('ada@example.com');
  const generalId = await joinedChannelId(server, workspaceId, adaApi.token, 'general');
  await addTeammate(server, workspaceId, adaApi.token, 'grace@example.com', 'Grace Hopper');

  const grace = await browser.newContext({ viewport: DESKTOP });
  const gracePage = await grace.newPage();
  await signInThroughUi(gracePage, server, 'grace@example.com');
  await gracePage.goto(`${server.url}/client/${workspaceId}/channel/${generalId}`);
  await expect(composer(gracePage, '#general')).toBeVisible();

  await sendThroughUi(adaPage, '#general', 'Ship the harbour release on Friday?');
  await sendThroughUi(gracePage, '#general', 'The checklist for Friday is in the wiki');
  // A poll from the composer's + menu.
  await adaPage.getByRole('button', { name: 'More actions' }).click();
  await adaPage.getByRole('menuitem', { name: 'Create a poll' }).click();
  // It opens on its first field, and is announced once: its name, with no hidden copy of it as description.
  const pollDialog = adaPage.getByRole('dialog', { name: 'Create a poll' });
  await expect(pollDialog.getByLabel('Question')).toBeFocused();
  await expect(pollDialog).toHaveAccessibleDescription('');
  await adaPage.getByLabel('Question').fill('Release day?');
  await adaPage.getByLabel('Option 1').fill('Friday');
  await adaPage.getByLabel('Option 2').fill('Monday');
  await adaPage.getByRole('button', { name: 'Create poll' }).click();
  await expect(gracePage.getByTestId('poll')).toContainText('Release day?');
  await expect(row(adaPage, 'The checklist for Friday').first()).toHaveAttribute('data-status', 'confirmed');
  await expect(row(adaPage, 'Release day?')).toHaveAttribute('data-status', 'confirmed');

  await server.stop();
  await expect(adaPage.getByRole('status').filter({ hasText: 'You are offline.' })).toBeVisible({
    timeout: 45_000,
  });

  // React.
  // .first(): the reply below quotes it.
  const checklist = row(adaPage, 'The checklist for Friday').first();
  await checklist.hover();
  await checklist.getByRole('button', { name: 'React with 👍' }).click();
  await expect(
    checklist.getByRole('button', { name: /thumbs up: 1 reaction, including yours/ }),
  ).toBeVisible();
  // Reply.
  await checklist.hover();
  await checklist.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(adaPage.getByTestId('reply-preview')).toContainText('Replying to Grace Hopper');
  await sendThroughUi(adaPage, '#general', 'Thanks, I will tick it off');
  await expect(row(adaPage, 'Thanks, I will tick it off').getByTestId('reply-quote')).toContainText(
    'The checklist for Friday',
  );
  // The quote and the poll read right to a screen reader: a control's name holds its visible text, and a
  // message adds no heading out of order (Lighthouse's two findings, checked by axe's own rules).
  await expect(row(adaPage, 'Thanks, I will tick it off').getByTestId('reply-quote')).toHaveAccessibleName(
    'Reply to Grace Hopper: The checklist for Friday is in the wiki',
  );
  const audit = await new AxeBuilder({ page: adaPage })
    .withRules(['label-content-name-mismatch', 'heading-order'])
    .analyze();
  expect(audit.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 200)}`))).toEqual([]);
  // Edit own message.
  await moreAction(adaPage, 'Ship the harbour release on Friday?', 'Edit message');
  const editor = adaPage.getByRole('textbox', { name: 'Edit message' });
  await editor.press('ControlOrMeta+a');
  await editor.pressSequentially('Ship the harbour release on Friday afternoon?');
  await editor.press('Enter');
  await expect(row(adaPage, 'Friday afternoon?').getByText('(edited)')).toBeVisible();
  // Pin.
  await moreAction(adaPage, 'The checklist for Friday', 'Pin to channel');
  await expect(checklist.getByText('Pinned', { exact: true })).toBeVisible();
  // Vote.
  await adaPage
    .getByTestId('poll')
    .getByRole('button', { name: /Friday/ })
    .click();
  await expect(adaPage.getByTestId('poll').getByRole('button', { name: /Friday/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Star.
  await checklist.hover();
  await checklist.getByRole('button', { name: 'Star message' }).click();
  await expect(checklist.getByLabel('Starred')).toBeVisible();

  // Search while offline: the messages on this device, and the page says so.
  await adaPage.getByRole('searchbox', { name: 'Search messages' }).fill('checklist');
  await adaPage.getByRole('searchbox', { name: 'Search messages' }).press('Enter');
  await expect(adaPage.getByText('Results from this device')).toBeVisible();
  await expect(adaPage.getByTestId('message-card').first()).toContainText('checklist');
  await expect(adaPage.getByTestId('message-card').first().locator('mark')).toHaveText(/checklist/i);
  await shot(adaPage, `${ARTIFACTS}/search-offline-desktop.png`);
  await adaPage.goBack();
  await expect(composer(adaPage, '#general')).toBeVisible();

  await server.start();
  await expect(adaPage.getByText('Sending…')).toHaveCount(0, { timeout: 45_000 });

  // Grace sees each change once.
  const seen = row(gracePage, 'The checklist for Friday').first();
  await expect(seen.getByRole('button', { name: /thumbs up: 1 reaction/ })).toBeVisible({ timeout: 30_000 });
  await expect(seen.getByText('Pinned', { exact: true })).toBeVisible();
  await expect(row(gracePage, 'Thanks, I will tick it off')).toHaveCount(1);
  await expect(row(gracePage, 'Thanks, I will tick it off').getByTestId('reply-quote')).toBeVisible();
  await expect(row(gracePage, 'Friday afternoon?').getByText('(edited)')).toBeVisible();
  await expect(gracePage.getByTestId('poll')).toContainText('1 vote');
  // Stars are Ada's own: Grace sees none.
  await expect(seen.getByLabel('Starred')).toHaveCount(0);

  // And the server holds each once.
  const stored = await server.api<{ data: StoredMessage[] }>(
    'GET',
    `/api/institutions/${workspaceId}/channels/${generalId}/messages?page=1&limit=100`,
    adaApi.token,
  );
  const live = stored.data.filter((m) => !m.deletedAt);
  const target = live.find((m) => m.content.includes('The checklist for Friday'));
  expect(target?.reactions).toEqual([expect.objectContaining({ emoji: '👍', count: 1 })]);
  expect(target?.isPinned).toBe(true);
  const replies = live.filter((m) => m.content.includes('Thanks, I will tick it off'));
  expect(replies).toHaveLength(1);
  expect(replies[0]?.replyTo).toBe(target?.id);
  const edited = live.filter((m) => m.content.includes('Ship the harbour release'));
  expect(edited).toHaveLength(1);
  expect(edited[0]?.content).toContain('Friday afternoon?');
  expect(edited[0]?.editedAt).not.toBeNull();
  const poll = live.find((m) => m.poll);
  expect(poll?.poll?.options.map((o) => o.votes)).toEqual([1, 0]);
  // A star is Ada's own record with no sign on Grace's screen, so nothing above waited for it: its
  // outbox entry may still be on its way when the others are seen.
  await expect
    .poll(
      async () =>
        (
          await server.api<{ data: { message: { id: string } }[] }>(
            'GET',
            `/api/institutions/${workspaceId}/channels/${generalId}/messages/starred?page=1`,
            adaApi.token,
          )
        ).data.map((s) => s.message.id),
      { timeout: 30_000 },
    )
    .toEqual([target?.id]);

  // A busy channel: a mention chip, an image and a PDF with their previews.
  const box = composer(adaPage, '#general');
  await box.pressSequentially('@gra');
  await adaPage.getByRole('option', { name: /Grace Hopper/ }).click();
  await box.pressSequentially('can you check the plan and the photo?');
  await adaPage.locator('input[type=file]').setInputFiles([
    { name: 'harbour.png', mimeType: 'image/png', buffer: samplePng() },
    { name: 'quarterly-plan.pdf', mimeType: 'application/pdf', buffer: samplePdf() },
  ]);
  await expect(adaPage.getByRole('list', { name: 'Files to send' }).getByRole('listitem')).toHaveCount(2);
  await box.press('Enter');
  const withFiles = row(adaPage, 'can you check the plan');
  await expect(withFiles.locator('.mention')).toHaveText('@Grace Hopper');
  await expect(withFiles.getByRole('img', { name: 'harbour.png' })).toBeVisible({ timeout: 30_000 });
  await expect(withFiles.getByTestId('pdf-preview')).toBeVisible({ timeout: 30_000 });
  const graceFiles = row(gracePage, 'can you check the plan');
  await expect(graceFiles.getByRole('img', { name: 'harbour.png' })).toBeVisible({ timeout: 30_000 });
  await expect(graceFiles.locator('.mention-me')).toHaveText('@Grace Hopper');

  // Up in the empty composer edits my last message in place; Escape leaves it as it was.
  await box.press('ArrowUp');
  await expect(adaPage.getByRole('textbox', { name: 'Edit message' })).toContainText(
    'can you check the plan',
  );
  await adaPage.getByRole('textbox', { name: 'Edit message' }).press('Escape');
  await expect(adaPage.getByRole('textbox', { name: 'Edit message' })).toHaveCount(0);

  // Delete asks first, then the message goes for everyone; only that one.
  await sendThroughUi(adaPage, '#general', 'Posted in the wrong channel');
  await expect(row(gracePage, 'Posted in the wrong channel')).toHaveCount(1);
  await moreAction(adaPage, 'Posted in the wrong channel', 'Delete message');
  await adaPage
    .getByRole('dialog', { name: 'Delete message?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(row(adaPage, 'Posted in the wrong channel')).toHaveCount(0);
  await expect(row(gracePage, 'Posted in the wrong channel')).toHaveCount(0);
  await expect(row(adaPage, 'Thanks, I will tick it off')).toBeVisible();
  await expect(row(gracePage, 'Thanks, I will tick it off')).toBeVisible();

  await gracePage.getByRole('link', { name: /Activity/ }).click();
  await expect(gracePage.getByTestId('message-card').filter({ hasText: 'mentioned you' })).toBeVisible();
  await expect(gracePage.getByRole('link', { name: /Activity/ })).toContainText(/\d/);
  const reacted = gracePage.getByTestId('message-card').filter({ hasText: 'reacted 👍' });
  await expect(reacted).toBeVisible();
  // The picture is of Ada, who reacted, not of Grace, whose message it was.
  await expect(reacted.locator('[aria-hidden]').first()).toHaveText(/^A/);
  await shot(gracePage, `${ARTIFACTS}/activity-desktop.png`);

  await adaPage.waitForTimeout(500);
  await shot(adaPage, `${ARTIFACTS}/busy-channel-desktop.png`);
  await adaPage.getByRole('button', { name: 'Pinned messages' }).click();
  await expect(adaPage.getByRole('dialog').getByTestId('message-card')).toHaveCount(1);
  await shot(adaPage, `${ARTIFACTS}/pinned-panel-desktop.png`);
  await adaPage.keyboard.press('Escape');
  // The channel's files, from the header: both uploads are listed.
  await adaPage.getByRole('button', { name: 'Files in this channel' }).click();
  await expect(adaPage.getByRole('dialog').getByText('quarterly-plan.pdf')).toBeVisible();
  await shot(adaPage, `${ARTIFACTS}/files-panel-desktop.png`);
  await adaPage.keyboard.press('Escape');
  await adaPage.setViewportSize(PHONE);
  await expect(composer(adaPage, '#general')).toBeVisible();
  await adaPage.waitForTimeout(500);
  await shot(adaPage, `${ARTIFACTS}/busy-channel-phone.png`);
  // On a phone the header leaves room for the name: the saved lists are in the options menu.
  await expect(adaPage.getByRole('button', { name: 'Pinned messages' })).toHaveCount(0);
  await adaPage.getByRole('button', { name: 'Channel options' }).click();
  await adaPage.getByRole('menuitem', { name: 'Pinned messages' }).click();
  await expect(adaPage.getByRole('dialog').getByTestId('message-card')).toHaveCount(1);
  await adaPage.keyboard.press('Escape');

  await ada.close();
  await grace.close();
});

// A message's actions are built when it is first pointed at or focused (decision 0060); a finger never
// points, so on a phone the "…" button and a long press must open the menu from a message never touched.
test.describe('on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('the "…" button and a long press open a message’s actions; Delete asks first', async ({ page }) => {
    await signInThroughUi(page, server, 'pia@example.com');
    const workspaceId = await createWorkspaceThroughUi(page, 'Harbour');
    const owner = await server.signInApi('pia@example.com');
    const generalId = await joinedChannelId(server, workspaceId, owner.token, 'general');
    for (const text of ['Ferry leaves at nine', 'Bring the charts', 'Tide turns at noon'])
      await server.api(
        'POST',
        `/api/institutions/${workspaceId}/channels/${generalId}/messages`,
        owner.token,
        {
          content: `<p>${text}</p>`,
          genId: crypto.randomUUID(),
        },
      );
    await page
      .getByRole('link', { name: /^general\b/ })
      .first()
      .click();
    await expect(row(page, 'Tide turns at noon')).toBeVisible();

    // A tap on the "…" of a message nothing has touched yet.
    const ferry = row(page, 'Ferry leaves at nine');
    await ferry.getByRole('button', { name: 'Message actions' }).tap();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Reply' })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'React with 👍' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);

    // A long press on a message that continues the group (its "…" shows only once it is touched).
    const cdp = await page.context().newCDPSession(page);
    const longPress = async (text: string, item: string) => {
      const box = await row(page, text).getByText(text).boundingBox();
      if (!box) throw new Error(`no box for "${text}"`);
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
      await expect(menu.getByRole('menuitem', { name: item })).toBeVisible();
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    await longPress('Bring the charts', 'Copy text');
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);

    // Delete, from the menu of a message never touched before, asks before it deletes.
    await longPress('Tide turns at noon', 'Delete message');
    await menu.getByRole('menuitem', { name: 'Delete message' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Delete message?' });
    await expect(dialog).toContainText('Tide turns at noon');
    await dialog.getByRole('button', { name: 'Delete' }).tap();
    await expect(row(page, 'Tide turns at noon')).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
  });
});

test('a message further back than the device holds: quoted, jumped to from the quote and from search', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'kim@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Tide Office');
  const kim = await server.signInApi('kim@example.com');
  const general = await joinedChannelId(server, workspaceId, kim.token, 'general');
  const post = (text: string, replyTo?: string) =>
    server.api<{ id: string }>(
      'POST',
      `/api/institutions/${workspaceId}/channels/${general}/messages`,
      kim.token,
      {
        content: `<p>${text}</p>`,
        genId: crypto.randomUUID(),
        ...(replyTo ? { replyTo } : {}),
      },
    );
  const original = await post('Moorings are checked on Mondays');
  // More than the 60 messages a channel opens with: the original is not among them (decision 0085).
  for (let i = 1; i <= 70; i++) await post(`Tide note ${i}`);
  await post('Still true in winter?', original.id);
  await openChannelFromSidebar(page, 'general');
  await page.reload();
  const quote = row(page, 'Still true in winter?').getByTestId('reply-quote');
  await expect(quote).toContainText('Moorings are checked on Mondays');
  // The original itself is not among the rows shown (only the reply quoting it is).
  await expect(
    messageList(page)
      .filter({ hasText: 'Moorings are checked on Mondays' })
      .filter({ hasNot: page.getByTestId('reply-quote') }),
  ).toHaveCount(0);
  await shot(page, `${ARTIFACTS}/reply-to-an-older-message.png`);

  // The quote takes the reader to the original in place (decision 0087): the history down to it is
  // loaded, it stands in view and flashes, and "Jump to latest" brings the newest back.
  const originalRow = messageList(page)
    .filter({ hasText: 'Moorings are checked on Mondays' })
    .filter({ hasNot: page.getByTestId('reply-quote') });
  await quote.click();
  await expect(originalRow).toBeInViewport();
  await expect(originalRow).toHaveClass(/message-highlight/);
  // Focus goes with the reader: the keyboard and a screen reader go on from the original.
  await expect(originalRow).toBeFocused();
  await expect(row(page, 'Tide note 1').first()).toBeVisible();
  await shot(page, `${ARTIFACTS}/reply-original-jumped-to.png`);
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(row(page, 'Still true in winter?')).toBeInViewport();
  // The older page asked for at the top may answer only now: the channel's intro comes in far above,
  // and the list stays at its newest message.
  await expect(page.getByText('This is the very beginning of the #general channel.')).toHaveCount(1);
  await expect(row(page, 'Still true in winter?')).toBeInViewport();
  await expect(originalRow).not.toBeInViewport();

  // From search, in a fresh page whose device holds only the newest rows: the result opens the channel
  // at the message, not at its end.
  await page.reload();
  await expect(row(page, 'Still true in winter?')).toBeVisible();
  await expect(originalRow).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('Moorings');
  await page.getByRole('searchbox', { name: 'Search messages' }).press('Enter');
  await page
    .getByRole('list', { name: 'Search results' })
    .getByTestId('message-card')
    .filter({ hasText: 'Moorings are checked on Mondays' })
    .filter({ hasNotText: 'Still true' })
    .click();
  await expect(originalRow).toBeInViewport();
  await expect(originalRow).toHaveClass(/message-highlight/);

  // A pinned message opened from the panel is shown each time, the same link followed twice included.
  await moreAction(page, 'Moorings are checked on Mondays', 'Pin to channel');
  await expect(originalRow.getByText('Pinned', { exact: true })).toBeVisible();
  for (let i = 0; i < 2; i++) {
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await expect(originalRow).not.toBeInViewport();
    await page.getByRole('button', { name: 'Pinned messages' }).click();
    await page.getByRole('dialog').getByTestId('message-card').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(originalRow).toBeInViewport();
    await expect(originalRow).toBeFocused();
  }
  // Opened in a new tab (Ctrl+click), the message shows there, and the panel here stays open.
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await page.getByRole('button', { name: 'Pinned messages' }).click();
  const [newTab] = await Promise.all([
    page.context().waitForEvent('page'),
    page
      .getByRole('dialog')
      .getByTestId('message-card')
      .click({ modifiers: ['ControlOrMeta'] }),
  ]);
  await expect(newTab).toHaveURL(new RegExp(`/channel/${general}#`));
  await expect(
    messageList(newTab)
      .filter({ hasText: 'Moorings are checked on Mondays' })
      .filter({ hasNot: newTab.getByTestId('reply-quote') }),
  ).toBeInViewport();
  await newTab.close();
  await expect(page.getByRole('dialog').getByTestId('message-card')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A link to a message deleted since says so, and leaves the reader where they were.
  const slip = await post('Slipway closed this week');
  await expect(row(page, 'Slipway closed this week')).toHaveCount(1);
  await moreAction(page, 'Slipway closed this week', 'Delete message');
  await page.getByRole('dialog', { name: 'Delete message?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'Slipway closed this week')).toHaveCount(0);
  await page.goto(`${server.url}/client/${workspaceId}/channel/${general}#${slip.id}`);
  await expect(page.getByText('That message was deleted.')).toBeVisible();

  // A link to no message of this channel says so.
  await page.goto(`${server.url}/client/${workspaceId}/channel/${general}#${crypto.randomUUID()}`);
  const notice = page
    .locator('[data-sonner-toast]')
    .filter({ hasText: 'That message is not in this conversation.' });
  await expect(notice).toBeVisible();
  // A notice is swiped away up past 20 px (spec §9), slowly enough that only the distance counts; less
  // than that springs back.
  // Dragged from its icon, straight up: a drag that starts on the words selects them, and sonner then
  // ignores it (so that text can be selected), which raced the drag on a slow machine.
  const swipeUp = async (px: number) => {
    const box = await notice.locator('[data-icon]').boundingBox();
    if (!box) throw new Error('the notice has no icon to drag by');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(300);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - px, { steps: 8 });
    await page.waitForTimeout(300);
    await page.mouse.up();
  };
  await swipeUp(12);
  await expect(notice).toBeVisible();
  // The short drag may have selected some of the notice's words, and sonner ignores a drag while there is
  // a selection (so that text can be selected): a person would click away first.
  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  await swipeUp(25);
  await expect(notice).toHaveCount(0);

  // A link whose id could climb the API's path ("..") is no message: said so, nothing else asked for.
  await page.goto(`${server.url}/client/${workspaceId}/channel/${general}#..`);
  await expect(notice).toBeVisible();

  // With the server out of reach, a link to a message this device does not hold cannot be followed yet.
  // (Playwright's offline switch does not reach the SharedWorker that makes the app's requests.)
  await server.stop();
  await page.goto(`${server.url}/client/${workspaceId}/channel/${general}#${crypto.randomUUID()}`);
  await expect(page.getByText('That message is not on this device yet.', { exact: false })).toBeVisible();
  await server.start();
});
