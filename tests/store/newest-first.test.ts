// A channel opened with thousands of messages it has never pulled (a first visit, a long absence) shows
// its newest messages first: the pull from the checkpoint brings the history oldest first, and waiting for
// all of it kept the newest off the screen for seconds (issue 11's first visit). An older page asked for by
// scrolling up reaches the open list in one change, not a re-render per message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_PAGE_MAX, MESSAGE_PAGE_SIZE, type Message } from '../../schemas/protocol/index.ts';
import { refreshJoinedChannels } from '../../src/data/channels.ts';
import { clearLocalSession } from '../../src/data/client.ts';
import { beginningReached } from '../../src/data/history-beginning.ts';
import { loadOlderMessages } from '../../src/data/messages.ts';
import { newGenId } from '../../src/store/gen-id.ts';
import { FIRST_WINDOW, watchMessageWindow } from '../../src/store/message-window.ts';
import { pendingMessage } from '../../src/store/pending-message.ts';
import { connect, eventually, makeChannel, restPost } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

/** More than one page of changes, so the pull from the start needs two. */
const HISTORY = CHANGES_PAGE_MAX + FIRST_WINDOW + 40;

async function postHistory(channelId: string): Promise<number> {
  let last = 0;
  for (let i = 0; i < HISTORY; i += 25) {
    const posted = await Promise.all(
      Array.from({ length: Math.min(25, HISTORY - i) }, (_, k) =>
        restPost(w.ws.owner, w.ws, channelId, `<p>message ${i + k + 1}</p>`),
      ),
    );
    for (const m of posted) last = Math.max(last, m.createdSeq);
  }
  return last;
}

describe('a channel opened far behind', () => {
  it('stores its newest messages before its history, then all of it, and its checkpoint reaches the end', async () => {
    const { client, engine, ws, me } = w;
    // A first visit: the tab opens a channel the store does not know yet, then the joined list arrives.
    const channel = await makeChannel(ws.owner, ws);
    const channelId = channel.id;
    const newest = await postHistory(channelId);
    const joined = await me.api.post(`/api/institutions/${ws.id}/channels/${channelId}/members`);
    expect(joined.status).toBe(200);
    await engine.setOpenChannel('tab-1', { institutionId: ws.id, channelId });

    const order: number[] = [];
    const watch = client.db.messages.insert$.subscribe((event) => {
      if (event.documentData.channelId === channelId) order.push(event.documentData.createdSeq);
    });
    try {
      await refreshJoinedChannels(ws.id);
    } finally {
      watch.unsubscribe();
    }

    // The screen's first window came first, before a single message of the history's start.
    expect(order.slice(0, FIRST_WINDOW).sort((a, b) => a - b)).toEqual(
      Array.from({ length: FIRST_WINDOW }, (_, i) => newest - FIRST_WINDOW + 1 + i),
    );
    // Then everything, once each, with the checkpoint at the end.
    expect(new Set(order).size).toBe(order.length);
    const stored = await client.db.messages.find({ selector: { channelId } }).exec();
    expect(stored.filter((m) => m.createdSeq > 0)).toHaveLength(newest);
    expect((await client.db.syncState.findOne(channelId).exec())?.checkpoint).toBe(newest);
  });
});

describe('an older page asked for by scrolling up', () => {
  it('lands in the open list in one change, not one per message', async () => {
    const { client, ws, me } = w;
    // Without the socket: the engine would hear of the join and pull the history into the store oldest
    // first, racing the page asked for here. Once it has stored the first message, the page older than the
    // oldest stored one is empty (decision 0071), and the catch-up fills the rest. The page is read over
    // HTTP, which works without it.
    w.goOffline();
    const channel = await makeChannel(ws.owner, ws);
    for (let i = 0; i < 40; i++) await restPost(ws.owner, ws, channel.id, `<p>older ${i + 1}</p>`);
    const joined = await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    expect(joined.status).toBe(200);

    const sizes: number[] = [];
    const watch = watchMessageWindow(client.db, channel.id, FIRST_WINDOW).subscribe((window) =>
      sizes.push(window.messages.length),
    );
    try {
      await eventually(() => sizes.length > 0);
      const { hasMore } = await loadOlderMessages(ws.id, channel.id);
      expect(hasMore).toBe(true);
      await eventually(() => (sizes.at(-1) ?? 0) >= MESSAGE_PAGE_SIZE, 15_000);
    } finally {
      watch.unsubscribe();
      await w.goOnline();
    }
    // Empty, then the page: not 1, 2, 3 … rows as each message was written.
    expect(sizes[0]).toBe(0);
    expect(sizes.slice(1).length).toBeGreaterThan(0);
    expect(sizes.slice(1).filter((n) => n < MESSAGE_PAGE_SIZE)).toEqual([]);
  });
});

describe('the next older page', () => {
  it('is the one after the confirmed messages stored, whatever waits to be sent', async () => {
    const { client, ws, me } = w;
    // Without the socket: the engine would hear of the join below and pull the whole channel into the store
    // in the background (as the test above allows), racing the pages this test reads one by one. The pages
    // are read over HTTP, which works without it.
    w.goOffline();
    const channel = await makeChannel(ws.owner, ws);
    const total = MESSAGE_PAGE_SIZE * 2 + 5;
    for (let i = 0; i < total; i++) await restPost(ws.owner, ws, channel.id, `<p>history ${i + 1}</p>`);
    const joined = await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
    expect(joined.status).toBe(200);
    const storedSeqs = async () =>
      (await client.db.messages.find({ selector: { channelId: channel.id } }).exec())
        .map((m) => m.createdSeq)
        .filter((s) => s > 0)
        .sort((a, b) => a - b);

    // Nothing stored: page 1, the newest.
    expect((await loadOlderMessages(ws.id, channel.id)).hasMore).toBe(true);
    expect(await storedSeqs()).toEqual(
      Array.from({ length: MESSAGE_PAGE_SIZE }, (_, i) => total - MESSAGE_PAGE_SIZE + 1 + i),
    );

    // A page's worth of mine not sent yet (no seq) does not move the page: page 2 follows.
    await client.db.messages.bulkInsert(
      Array.from({ length: MESSAGE_PAGE_SIZE }, (_, n) =>
        pendingMessage({
          genId: newGenId(),
          institutionId: ws.id,
          channelId: channel.id,
          memberId: me.memberId,
          content: `<p>waiting ${n + 1}</p>`,
          createdAt: new Date().toISOString(),
        }),
      ),
    );
    expect((await loadOlderMessages(ws.id, channel.id)).hasMore).toBe(true);
    expect(await storedSeqs()).toEqual(
      Array.from({ length: MESSAGE_PAGE_SIZE * 2 }, (_, i) => total - MESSAGE_PAGE_SIZE * 2 + 1 + i),
    );

    // Then the last five, and the server says there is nothing older.
    expect((await loadOlderMessages(ws.id, channel.id)).hasMore).toBe(false);
    expect(await storedSeqs()).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    await w.goOnline();
  });

  it('follows on from the oldest message stored, whatever was deleted or posted since the last page', async () => {
    const { client, ws, me } = w;
    w.goOffline();
    const channel = await makeChannel(ws.owner, ws);
    const total = MESSAGE_PAGE_SIZE * 3;
    const posted: Message[] = [];
    for (let i = 0; i < total; i++)
      posted.push(await restPost(ws.owner, ws, channel.id, `<p>old ${i + 1}</p>`));
    expect((await me.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`)).status).toBe(200);
    const storedContents = async () =>
      (await client.db.messages.find({ selector: { channelId: channel.id } }).exec())
        .filter((m) => m.createdSeq > 0 && !m.deletedAt)
        .sort((a, b) => a.createdSeq - b.createdSeq)
        .map((m) => m.content);
    const contents = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `<p>old ${from + i}</p>`);

    expect((await loadOlderMessages(ws.id, channel.id)).hasMore).toBe(true);
    expect(await storedContents()).toEqual(contents(MESSAGE_PAGE_SIZE * 2 + 1, total));

    // Meanwhile two of the newest page are deleted and three new ones posted (this tab, offline, has heard
    // of neither): counted by position, the next page would skip two messages and repeat three.
    const owner = await connect(w.server, ws.owner.token);
    for (const m of posted.slice(-2))
      await owner
        .timeout(5_000)
        .emitWithAck('deleteMessage', { institutionId: ws.id, channelId: channel.id, messageId: m.id });
    owner.disconnect();
    for (let i = 0; i < 3; i++) await restPost(ws.owner, ws, channel.id, `<p>new ${i + 1}</p>`);

    expect((await loadOlderMessages(ws.id, channel.id)).hasMore).toBe(true);
    expect(await storedContents()).toEqual(contents(MESSAGE_PAGE_SIZE + 1, total));
    expect((await loadOlderMessages(ws.id, channel.id)).hasMore).toBe(false);
    expect(await storedContents()).toEqual(contents(1, total));
    // A list opened here again has nothing older to ask for, until the stored messages go with a sign-out:
    // then a list must ask the server again, or the history before the next first page would stay hidden.
    expect(beginningReached(channel.id)).toBe(true);
    await w.goOnline();
    await clearLocalSession(client.db);
    expect(beginningReached(channel.id)).toBe(false);
  });
});
