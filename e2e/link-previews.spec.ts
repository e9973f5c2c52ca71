// Link previews (decision 0053): a message linking to a page (served here, on loopback, which this server's
// operator allows) shows the page's title, description and picture, the picture served by Lantern so the
// browser never contacts the linked site (the content-security-policy would block it, and the watcher
// says so). The workspace's admin switches previews off in Settings and the card goes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { watchCsp } from './support/csp-watch.ts';
import { samplePng } from './support/sample-files.ts';
import { shot } from './support/screenshots.ts';
import { LanternServer } from './support/server.ts';
import { expect, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const ARTIFACTS = 'e2e/artifacts';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

const ARTICLE = `<!doctype html><html><head>
<title>Harbour report</title>
<meta property="og:site_name" content="Harbour Gazette">
<meta property="og:title" content="Tides &amp; ferries: the spring timetable">
<meta property="og:description" content="Ferries leave every forty minutes from the north pier until the end of May, weather permitting.">
<meta property="og:image" content="/images/cover.png">
</head><body><p>Full report</p></body></html>`;

let server: LanternServer;
let site: Server;
let siteUrl: string;

test.beforeAll(async () => {
  const cover = samplePng(640, 320);
  site = createServer((req, res) => {
    if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(ARTICLE);
    }
    if (req.url === '/images/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(cover);
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  server = await LanternServer.create({ LINK_PREVIEW_ALLOW_PRIVATE: 'true' });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => site?.close(resolve));
});

test('a link shows its page’s preview, until the admin switches previews off', async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const csp = await watchCsp(page);
  // The page's picture comes through Lantern: the browser never asks the linked site for anything.
  const thirdParty: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(siteUrl)) thirdParty.push(request.url());
  });

  await signInThroughUi(page, server, 'ada@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Harbour Ops');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', `The new timetable is out: ${siteUrl}/article`);

  const message = messageList(page).filter({ hasText: 'The new timetable is out' });
  const card = message.getByTestId('link-preview');
  await expect(card).toBeVisible();
  await expect(card.getByText('Harbour Gazette')).toBeVisible();
  await expect(card.getByRole('link', { name: 'Tides & ferries: the spring timetable' })).toHaveAttribute(
    'href',
    `${siteUrl}/article`,
  );
  await expect(card.getByText('Ferries leave every forty minutes from the north pier')).toBeVisible();
  const picture = card.getByRole('img', { name: 'Tides & ferries: the spring timetable' });
  await expect(picture).toBeVisible();
  await expect(picture).toHaveAttribute('src', /^blob:/);
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  // The card came after the message: the list, read to its end, stays at its end.
  await expect(picture).toBeInViewport({ ratio: 1 });

  await shot(page, `${ARTIFACTS}/link-preview-desktop.png`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, `${ARTIFACTS}/link-preview-desktop-dark.png`);
  await page.setViewportSize(PHONE);
  await expect(card).toBeVisible();
  await shot(page, `${ARTIFACTS}/link-preview-phone-dark.png`);
  await page.emulateMedia({ colorScheme: 'light' });
  await shot(page, `${ARTIFACTS}/link-preview-phone.png`);
  await page.setViewportSize(DESKTOP);

  // "Show images in channels" off: the card stays, its picture waits to be asked for.
  const settings = `${server.url}/client/${workspaceId}/settings`;
  await page.goto(settings);
  await page.getByRole('switch', { name: 'Show images in channels' }).click();
  await openChannelFromSidebar(page, 'general');
  await expect(card.getByRole('link', { name: 'Tides & ferries: the spring timetable' })).toBeVisible();
  await expect(card.getByRole('img')).toHaveCount(0);
  await card.getByRole('button', { name: 'Show picture' }).click();
  await expect(picture).toBeVisible();

  // The admin switches previews off for the workspace.
  await page.goto(`${server.url}/client/${workspaceId}/settings/workspace`);
  const toggle = page.getByRole('switch', { name: 'Show link previews' });
  await expect(toggle).toBeChecked();
  await shot(page, `${ARTIFACTS}/link-preview-setting.png`);
  await toggle.click();
  // Unchecked once the server has taken it: the switch shows the stored workspace.
  await expect(toggle).not.toBeChecked();

  await openChannelFromSidebar(page, 'general');
  await expect(message).toBeVisible();
  await expect(message.getByTestId('link-preview')).toHaveCount(0);

  expect(thirdParty).toEqual([]);
  expect(csp.violations()).toEqual([]);
  await context.close();
});
