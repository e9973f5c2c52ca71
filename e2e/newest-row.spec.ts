// A new message at the bottom of a full channel is read in the frame that first draws it: the list brings
// the row wholly into view then, instead of drawing its top edge below the fold and scrolling to it a
// frame or two later (as the virtualised list once did: react-virtuoso followed a row once it was measured).
import { specServer } from './support/spec-server.ts';
import { joinedChannelId, postMessageApi } from './support/team.ts';
import { expect, type Page, test } from './support/test.ts';
import {
  createWorkspaceThroughUi,
  messageList,
  openChannelFromSidebar,
  sendThroughUi,
  signInThroughUi,
} from './support/ui.ts';

const server = specServer();

/**
 * Watches for the row holding `text`: after the paint of the first frame that has it in the document,
 * whether it was wholly inside the list's scroller.
 */
async function watchRow(page: Page, text: string): Promise<void> {
  await page.evaluate((wanted) => {
    const state = { inView: null as boolean | null };
    (window as unknown as { __newest: typeof state }).__newest = state;
    const find = () =>
      [...document.querySelectorAll('article[data-status]')].find((row) => row.textContent?.includes(wanted));
    const observer = new MutationObserver(() => {
      if (!find()) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        // A task queued from the frame's callbacks runs after its paint.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const row = find();
          const scroller = row?.closest('[data-message-scroller]');
          if (!row || !scroller) return;
          const r = row.getBoundingClientRect();
          const box = scroller.getBoundingClientRect();
          state.inView = r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
        };
        channel.port2.postMessage(0);
      });
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, text);
}

const inViewAtFirstPaint = (page: Page) =>
  page.evaluate(() => (window as unknown as { __newest: { inView: boolean | null } }).__newest.inView);

test('a new message at the bottom of a full channel is wholly in view in the first frame that draws it', async ({
  page,
}) => {
  await signInThroughUi(page, server, 'iris@example.com');
  const workspaceId = await createWorkspaceThroughUi(page, 'Tideway');
  const iris = await server.signInApi('iris@example.com');
  const generalId = await joinedChannelId(server, workspaceId, iris.token, 'general');
  const post = (text: string) => postMessageApi(server, workspaceId, generalId, iris.token, text);
  for (let i = 1; i <= 30; i++) await post(`Tide reading ${i}`);
  await openChannelFromSidebar(page, 'general');
  await expect(messageList(page).filter({ hasText: 'Tide reading 30' })).toBeInViewport();

  for (let i = 1; i <= 3; i++) {
    // Someone else's message (from another session of Iris's: the same path as a colleague's).
    await watchRow(page, `High water ${i}`);
    await post(`High water ${i}`);
    await expect.poll(() => inViewAtFirstPaint(page)).not.toBeNull();
    expect(await inViewAtFirstPaint(page), `High water ${i}`).toBe(true);

    // And one sent here.
    await watchRow(page, `Low water ${i}`);
    await sendThroughUi(page, '#general', `Low water ${i}`);
    await expect.poll(() => inViewAtFirstPaint(page)).not.toBeNull();
    expect(await inViewAtFirstPaint(page), `Low water ${i}`).toBe(true);
  }
});
