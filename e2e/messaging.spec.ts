// (a) Sign in with the mailed code, create a workspace, send a message; a second person in another
// browser context sees it live. Screenshots of sign-in and the channel view at desktop and phone width.
import type { Editor } from '@tiptap/core';
import { io } from 'socket.io-client';
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { expect, test } from './support/test.ts';
import {
  composer,
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  sidebarChannel,
  signInThroughUi,
} from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

const server = specServer();

test('a message sent in one browser appears live in a teammate’s browser', async ({ browser }) => {
  const ada = await browser.newContext({ viewport: DESKTOP });
  const adaPage = await ada.newPage();

  // The sign-in page, before anyone is signed in.
  await adaPage.goto(`${server.url}/signin`);
  await expect(adaPage.getByRole('heading', { name: 'Sign in to Lantern' })).toBeVisible();
  await expect(adaPage).toHaveTitle('Sign in - Lantern');
  await shot(adaPage, `${ARTIFACTS}/signin-desktop.png`);
  await adaPage.setViewportSize(PHONE);
  await shot(adaPage, `${ARTIFACTS}/signin-phone.png`);
  await adaPage.setViewportSize(DESKTOP);

  const email = adaPage.getByLabel('E-mail');
  await expect(email).toHaveAttribute('type', 'email');
  await expect(email).toHaveAttribute('autocomplete', 'email');

  await signInThroughUi(adaPage, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(adaPage, 'Acme Field Team');
  await openChannelFromSidebar(adaPage, 'general');
  await expect(adaPage).toHaveTitle('#general - Lantern');
  await sendThroughUi(adaPage, '#general', 'Hello from the first browser');
  const first = messageList(adaPage).filter({ hasText: 'Hello from the first browser' });
  await expect(first).toHaveAttribute('data-status', 'confirmed');
  await expect(adaPage.getByText('Sending…')).toHaveCount(0);

  // Grace is invited through the API and accepts in her own browser.
  const adaApi = await server.signInApi('ada@example.com');
  await server.api('POST', `/api/institutions/${workspaceId}/invited-members`, adaApi.token, {
    emails: ['grace@example.com'],
  });
  const grace = await browser.newContext({ viewport: DESKTOP });
  const gracePage = await grace.newPage();
  await signInThroughUi(gracePage, server, 'grace@example.com');
  await expect(gracePage).toHaveURL(/\/join$/);
  await gracePage.getByRole('button', { name: 'Join' }).click();
  await expect(gracePage).toHaveURL(new RegExp(`/client/${workspaceId}`));
  await openChannelFromSidebar(gracePage, 'general');
  await expect(messageList(gracePage).filter({ hasText: 'Hello from the first browser' })).toBeVisible();

  // Live both ways, without reloading.
  await sendThroughUi(adaPage, '#general', 'Are you seeing this live?');
  await expect(messageList(gracePage).filter({ hasText: 'Are you seeing this live?' })).toBeVisible();
  await sendThroughUi(gracePage, '#general', 'Yes, instantly.');
  // Grace joined after Ada's directory loaded: her name still shows, not 'Unknown member'.
  await expect(
    messageList(adaPage).filter({ hasText: 'Yes, instantly.' }).getByText('grace', { exact: true }),
  ).toBeVisible();
  await expect(messageList(adaPage).filter({ hasText: 'Yes, instantly.' })).toHaveAttribute(
    'data-status',
    'confirmed',
  );

  // Shift+Enter adds a line instead of sending.
  const box = composer(adaPage, '#general');
  await box.fill('first line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await expect(box.locator('p')).toHaveText(['first line', 'second line']);
  await box.press('Enter');
  await expect(messageList(gracePage).filter({ hasText: 'second line' })).toBeVisible();

  // Ctrl+K turns the selected word into a link; an address that cannot be a link is refused.
  await box.fill('See the handbook');
  await expect(box).toHaveText('See the handbook');
  // The editor's own selection, not the page's: ProseMirror takes a selection change in a task of its own,
  // and on a loaded machine the shortcut once came before it and linked "andbook". Selected again until the
  // editor sees the word.
  const editorSelection = () =>
    box.evaluate((element) => {
      const { state } = (element as HTMLElement & { editor: Editor }).editor;
      return state.doc.textBetween(state.selection.from, state.selection.to);
    });
  await expect(async () => {
    await box.press('End');
    for (let i = 0; i < 'handbook'.length; i++) await box.press('Shift+ArrowLeft');
    await expect.poll(editorSelection, { timeout: 5_000 }).toBe('handbook');
  }).toPass({ timeout: 45_000 });
  await box.press('Control+Shift+u');
  const linkForm = adaPage.getByRole('dialog', { name: 'Link' });
  await linkForm.getByLabel('Link address').fill('javascript:alert(1)');
  await linkForm.getByRole('button', { name: 'Add link' }).click();
  await expect(linkForm.getByText('Only web (http, https) and e-mail links are allowed')).toBeVisible();
  await linkForm.getByLabel('Link address').fill('example.com/handbook');
  await shot(adaPage, `${ARTIFACTS}/composer-link-desktop.png`);
  await linkForm.getByRole('button', { name: 'Add link' }).click();
  await expect(linkForm).toHaveCount(0);
  await box.press('Enter');
  await expect(
    messageList(gracePage).filter({ hasText: 'See the handbook' }).getByRole('link', { name: 'handbook' }),
  ).toHaveAttribute('href', 'https://example.com/handbook');

  await shot(adaPage, `${ARTIFACTS}/channel-desktop.png`);
  await adaPage.setViewportSize(PHONE);
  await expect(composer(adaPage, '#general')).toBeVisible();
  await expect(messageList(adaPage).filter({ hasText: 'second line' })).toBeVisible();
  await shot(adaPage, `${ARTIFACTS}/channel-phone.png`);
  // On a phone the sidebar is its own screen, reached by the back button.
  await adaPage.getByRole('link', { name: 'Back to channels' }).click();
  await expect(adaPage.getByRole('navigation', { name: 'Workspace' })).toBeVisible();
  await shot(adaPage, `${ARTIFACTS}/sidebar-phone.png`);

  // Presence, live: the dot beside Grace's direct message and in its header follow her connection without
  // a reload, though it no longer passes through the workspace's shared member map (src/app/presence.ts).
  await adaPage.setViewportSize(DESKTOP);
  await adaPage.getByRole('button', { name: 'New direct message' }).click();
  await adaPage
    .getByRole('dialog', { name: 'New direct message' })
    .getByRole('button', { name: /grace@example\.com/ })
    .click();
  await expect(composer(adaPage, 'grace')).toBeVisible();
  const dots = [sidebarChannel(adaPage, 'grace'), adaPage.locator('main header')];
  for (const where of dots) await expect(where.getByRole('img', { name: 'Online' })).toBeVisible();
  await grace.close();
  for (const where of dots) await expect(where.getByRole('img', { name: 'Offline' })).toBeVisible();
  const graceApi = await server.signInApi('grace@example.com');
  const graceSocket = io(server.url, {
    transports: ['websocket'],
    auth: { token: graceApi.token },
    forceNew: true,
    reconnection: false,
  });
  try {
    for (const where of dots) await expect(where.getByRole('img', { name: 'Online' })).toBeVisible();
  } finally {
    graceSocket.disconnect();
  }

  await ada.close();
});

test('a message of spaces, empty lines or zero-width characters is not offered; an address sent last is a link', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'noor@example.com');
  await createWorkspaceThroughUi(page, 'Blank Test');
  await openChannelFromSidebar(page, 'general');
  const box = composer(page, '#general');
  await box.click();
  await box.pressSequentially('   ');
  await box.press('Shift+Enter');
  await box.press('Shift+Enter');
  await page.keyboard.insertText('\u200b');
  const send = page.getByRole('button', { name: 'Send message' });
  await expect(send).toBeDisabled();
  await box.press('Enter');
  await page.waitForTimeout(500);
  await expect(messageList(page)).toHaveCount(0);
  // A word makes it a message again.
  await box.pressSequentially('hello');
  await expect(send).toBeEnabled();

  // An address typed last and sent with Enter is a link in the message (issue 15 item 6): the composer's
  // autolink waits for the key after it, which Enter never is.
  await box.pressSequentially(', the plan is at example.com/plan.');
  await box.press('Enter');
  const link = messageList(page).getByRole('link', { name: 'example.com/plan' });
  await expect(link).toHaveAttribute('href', 'https://example.com/plan');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(messageList(page)).toContainText('hello, the plan is at example.com/plan.');

  // An emoji draws in colour from the bundled font, on this machine that has no emoji font of its own
  // (CI installs none): the face is loaded once a message needs it.
  await box.pressSequentially('Shipped 🎉');
  await box.press('Enter');
  await expect(messageList(page).last()).toContainText('Shipped 🎉');
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.fonts].some(
          (f) => f.family.replace(/"/g, '') === 'Lantern Emoji' && f.status === 'loaded',
        ),
      ),
    )
    .toBe(true);
});
