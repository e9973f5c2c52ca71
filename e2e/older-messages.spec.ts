// Scrolling up a long channel: older messages come in above the ones read, and the reader stays where
// they were (the list keeps its place itself: decision 0070), until the channel's beginning; "Jump to
// latest" takes them back to the newest message.
import { shot } from './support/screenshots.ts';
import { specServer } from './support/spec-server.ts';
import { addTeammate, createChannelApi, joinedChannelId, postMessageApi } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const METRICS_TOKEN = 'older-messages-metrics';
// The Prometheus figures count the history route's answers: what the list asked the server.
const server = specServer({ METRICS_TOKEN });

/** How many pages of a channel's history the server has answered so far. */
async function historyPagesServed(): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('lantern_http_request_duration_seconds_count{') &&
        l.includes('method="GET"') &&
        l.includes('route="/api/institutions/:id/channels/:channelId/messages"'),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const TOTAL = 450;

const scroller = (page: Page) => page.locator('#root [data-message-scroller]');

/**
 * Scrolls the list to `part` of its height (0 its top, 0.5 its middle); returns the first row then wholly
 * below the view's top, and where its bottom stood.
 */
function scrollAndRead(page: Page, part: number): Promise<{ genId: string; bottom: number }> {
  return scroller(page).evaluate((el, part) => {
    el.scrollTo({ top: el.scrollHeight * part });
    const box = el.getBoundingClientRect();
    const row = [...el.querySelectorAll<HTMLElement>('article[data-gen-id]')].find(
      (r) => r.getBoundingClientRect().top >= box.top,
    );
    if (!row) throw new Error('no row in view');
    return { genId: row.dataset.genId ?? '', bottom: row.getBoundingClientRect().bottom };
  }, part);
}

/**
 * Where a row's bottom stands as the next frame paints it: the list keeps its place after the browser's
 * layout (a ResizeObserver), so between a render and that frame the rows may stand where nobody sees them.
 */
function bottomOf(page: Page, genId: string): Promise<number> {
  return page
    .locator(`#root article[data-gen-id="${genId}"]`)
    .evaluate(
      (row) =>
        new Promise<number>((resolve) =>
          requestAnimationFrame(() => setTimeout(() => resolve(row.getBoundingClientRect().bottom))),
        ),
    );
}

test('scrolled to the top, older messages come in above and the row being read does not move', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'wren@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Logbook');
  const wren = await server.signInApi('wren@example.com');
  const generalId = await joinedChannelId(server, workspaceId, wren.token, 'general');
  // More than a first window holds (src/store/message-window.ts), a few at a time.
  for (let i = 0; i < TOTAL; i += 15)
    await Promise.all(
      Array.from({ length: 15 }, (_, j) =>
        postMessageApi(server, workspaceId, generalId, wren.token, `Log entry ${i + j + 1}`),
      ),
    );
  await postMessageApi(server, workspaceId, generalId, wren.token, 'The newest entry');
  await openChannelFromSidebar(page, 'general');
  await expect(messageList(page).filter({ hasText: 'The newest entry' })).toBeInViewport();
  // Opened again once every message is stored: the first window is read from the store as a person
  // coming back to the channel finds it, not grown by the messages arriving while it was open.
  await page.reload();
  await expect(messageList(page).filter({ hasText: 'The newest entry' })).toBeInViewport();
  const rows = messageList(page);
  // The first render draws a screen's worth, the next idle moment a few screens: scrolled up before that,
  // the reader would still be within reach of the end, where the list follows the newest message.
  await expect.poll(() => rows.count()).toBeGreaterThan(30);
  const beginning = page.getByText('This is the very beginning of the #general channel');
  await expect(beginning).toHaveCount(0);
  expect(await rows.count(), 'rows before scrolling up').toBeLessThan(TOTAL);

  // Page after page until the beginning: each time, the row at the top stays where it was.
  for (let pages = 1; (await rows.count()) < TOTAL + 1; pages++) {
    expect(pages, 'pages asked for').toBeLessThan(20);
    const shown = await rows.count();
    const before = await scrollAndRead(page, 0);
    await expect.poll(() => rows.count()).toBeGreaterThan(shown);
    const moved = (await bottomOf(page, before.genId)) - before.bottom;
    expect(Math.abs(moved), `the top row moved by ${moved} px on page ${pages}`).toBeLessThanOrEqual(2);
  }
  // At the top of everything stored, the server is asked, says there is nothing older, and the channel's
  // beginning is drawn above (the row read still stays where it was).
  await scrollAndRead(page, 0);
  await expect(beginning).toBeAttached();
  await scrollAndRead(page, 0);
  await expect(beginning).toBeInViewport();
  await shot(page, 'e2e/artifacts/older-messages-beginning.png');
  await expect(rows).toHaveCount(TOTAL + 1);

  // Reading in the middle, someone's new message comes at the end: the row being read stays where it
  // was, and the way back counts the message.
  const before = await scrollAndRead(page, 0.5);
  const jump = page.getByRole('button', { name: /Jump to latest/ });
  await expect(jump).toBeVisible();
  // The connection drops while reading: the offline banner comes above the channel and goes when it is
  // back, and the row being read stays where it was on the screen all the while.
  await server.stop();
  const offline = page.getByRole('status').filter({ hasText: 'You are offline.' });
  await expect(offline).toBeVisible({ timeout: 45_000 });
  const whileOffline = (await bottomOf(page, before.genId)) - before.bottom;
  expect(
    Math.abs(whileOffline),
    `the row moved by ${whileOffline} px as the banner came`,
  ).toBeLessThanOrEqual(2);
  await server.start();
  await expect(offline).toHaveCount(0, { timeout: 45_000 });
  const backOnline = (await bottomOf(page, before.genId)) - before.bottom;
  expect(Math.abs(backOnline), `the row moved by ${backOnline} px as the banner went`).toBeLessThanOrEqual(2);
  const finch = await addTeammate(server, workspaceId, wren.token, 'finch@example.com', 'Finch');
  await postMessageApi(server, workspaceId, generalId, finch.token, 'While you were reading');
  await expect(jump).toContainText('1 new');
  await expect(rows).toHaveCount(TOTAL + 2);
  const moved = (await bottomOf(page, before.genId)) - before.bottom;
  expect(Math.abs(moved), `the row being read moved by ${moved} px`).toBeLessThanOrEqual(2);

  await jump.click();
  await expect(messageList(page).filter({ hasText: 'While you were reading' })).toBeInViewport();
  await expect(jump).toHaveCount(0);

  // Scrolled up again, the reader sends: the list goes to the message sent, and the way back goes.
  await scrollAndRead(page, 0.5);
  await expect(jump).toBeVisible();
  await sendThroughUi(page, '#general', 'Answered from the middle');
  await expect(messageList(page).filter({ hasText: 'Answered from the middle' })).toBeInViewport();
  await expect(jump).toHaveCount(0);
});

test('back in a channel read to its beginning, its intro shows at once and the server is not asked again', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'robin@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Short Notes');
  const robin = await server.signInApi('robin@example.com');
  const randomId = await createChannelApi(server, workspaceId, robin.token, 'random');
  await postMessageApi(server, workspaceId, randomId, robin.token, 'A word in random');
  await openChannelFromSidebar(page, 'general');
  await sendThroughUi(page, '#general', 'Only a few words here');
  // A short channel: the list is at its top, asks for older messages, and hears there are none.
  const beginning = page.getByText('This is the very beginning of the #general channel');
  await expect(beginning).toBeVisible();
  const served = await historyPagesServed();

  await openChannelFromSidebar(page, 'random');
  await expect(page.getByText('This is the very beginning of the #random channel')).toBeVisible();
  // The figures count what the list asks: a channel not read before is asked about.
  await expect.poll(historyPagesServed).toBeGreaterThan(served);
  const servedForRandom = await historyPagesServed();
  await openChannelFromSidebar(page, 'general');
  await expect(messageList(page).filter({ hasText: 'Only a few words here' })).toBeVisible();
  await expect(beginning).toBeVisible();
  await expect(page.getByText('Loading older messages')).toHaveCount(0);
  // Long enough for the list's idle draw and its look at the top, which asked the server before.
  await page.waitForTimeout(1_500);
  expect(await historyPagesServed(), 'pages asked for on coming back').toBe(servedForRandom);
});
