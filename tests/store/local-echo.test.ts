// Enter → the pending message is in the channel's window at once, from memory, while the store's write
// is still held; the write then lands under the same genId and the message is delivered exactly once. A
// write that fails leaves nothing behind (no echo, no row, no outbox entry) and tells the caller, which
// gives the words back. The store's write is held and failed with a real RxDB pre-insert hook.
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDoc } from '../../schemas/collections.ts';
import { refreshJoinedChannels } from '../../src/data/channels.ts';
import { sendMessage } from '../../src/data/messages.ts';
import { echoesOf, withEchoes } from '../../src/store/local-echo.ts';
import { orderMessages } from '../../src/store/message-order.ts';
import { type MessageWindow, watchMessageWindow } from '../../src/store/message-window.ts';
import { connect, makeChannel } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;
/** While set, every message insert waits for it (held) or rejects with it (failed). */
let gate: Promise<void> | null = null;

beforeAll(async () => {
  w = await startEngineWorld();
  w.client.db.messages.preInsert(() => gate ?? undefined, false);
}, 60_000);

afterAll(async () => {
  await w?.close();
});

/** The channel as the screen shows it: the stored window with the echoes merged in (useMessageWindow). */
function shown(window: MessageWindow, channelId: string): MessageDoc[] {
  return withEchoes(window.messages, echoesOf(channelId), orderMessages, window.held);
}

describe('local echo', () => {
  it('shows the pending message before the store write resolves, then the stored row, sent once', async () => {
    const { ws } = w;
    const channelId = ws.general.id;
    const window$ = watchMessageWindow(w.client.db, channelId, 60);
    let release: () => void = () => {};
    gate = new Promise<void>((r) => {
      release = r;
    });

    const sending = sendMessage({
      institutionId: ws.id,
      channelId,
      memberId: w.me.memberId,
      content: '<p>Before the store</p>',
    });
    // Synchronously after the call (the Enter handler's own task), before any write.
    const echo = echoesOf(channelId).find((m) => m.content === '<p>Before the store</p>');
    expect(echo).toMatchObject({ status: 'pending', memberId: w.me.memberId, channelId });
    const genId = echo?.genId as string;

    // The store holds neither row yet, and the screen shows the message anyway.
    const held = await firstValueFrom(window$);
    expect(held.messages.some((m) => m.genId === genId)).toBe(false);
    expect(shown(held, channelId).at(-1)).toMatchObject({ genId, status: 'pending' });
    expect(await w.client.db.outbox.findOne(genId).exec()).toBeNull();

    gate = null;
    release();
    expect(await sending).toBe(genId);
    // The store's own row arrives under the same genId; the outbox row was written with it.
    const stored = await firstValueFrom(
      window$.pipe(filter((win) => win.messages.some((m) => m.genId === genId))),
    );
    expect(shown(stored, channelId).filter((m) => m.genId === genId)).toHaveLength(1);
    expect(stored.messages.find((m) => m.genId === genId)).toMatchObject({
      content: '<p>Before the store</p>',
      createdAt: echo?.createdAt,
    });

    await w.goOnline();
    await w.drained();
    expect((await w.stored(genId)).status).toBe('confirmed');
    const res = await ws.owner.api.get<{ data: { genId: string }[] }>(
      `/api/institutions/${ws.id}/channels/${channelId}/messages?page=1&limit=50`,
    );
    expect(res.body.data.filter((m) => m.genId === genId)).toHaveLength(1);
  });

  it('drops the echo and leaves nothing queued when the store write fails', async () => {
    const { ws } = w;
    const channelId = ws.general.id;
    gate = Promise.reject(new Error('The device is out of space'));
    gate.catch(() => {});
    const sending = sendMessage({
      institutionId: ws.id,
      channelId,
      memberId: w.me.memberId,
      content: '<p>Not written</p>',
    });
    const echo = echoesOf(channelId).find((m) => m.content === '<p>Not written</p>');
    expect(echo).toBeDefined();
    await expect(sending).rejects.toThrow('The device is out of space');
    gate = null;
    expect(echoesOf(channelId).some((m) => m.genId === echo?.genId)).toBe(false);
    expect(await w.client.db.messages.findOne(echo?.genId).exec()).toBeNull();
    expect(await w.client.db.outbox.findOne(echo?.genId).exec()).toBeNull();
  });
});

describe('a live arrival', () => {
  let release: () => void = () => {};
  /** Holds every message insert until release() (a slow store write on a phone). */
  const holdStoreWrites = () => {
    gate = new Promise<void>((r) => {
      release = () => {
        gate = null;
        r();
      };
    });
  };
  // A failed step must not leave the store's writes held for the next test.
  afterEach(() => release());

  const postAs = async (content: string, channelId = w.ws.general.id) => {
    const res = await w.ws.owner.api.post<{ id: string; genId: string }>(
      `/api/institutions/${w.ws.id}/channels/${channelId}/messages`,
      { content, genId: crypto.randomUUID() },
    );
    expect(res.status).toBe(201);
    return res.body;
  };

  /** #general open in this tab, online, its window watched, and the store's writes held. */
  const openGeneralOnline = async () => {
    const { ws, client } = w;
    const channelId = ws.general.id;
    await client.worker.setOpenChannel(client.tabId, { institutionId: ws.id, channelId });
    await w.goOnline();
    const window$ = watchMessageWindow(client.db, channelId, 60);
    holdStoreWrites();
    return { ws, channelId, window$ };
  };

  it("shows someone's message in the open channel before the store writes it, then the stored row, once", async () => {
    const { channelId, window$ } = await openGeneralOnline();

    const { genId } = await postAs('<p>Arrived live</p>');
    await expect.poll(() => echoesOf(channelId).some((m) => m.genId === genId)).toBe(true);
    const held = await firstValueFrom(window$);
    expect(held.messages.some((m) => m.genId === genId)).toBe(false);
    expect(shown(held, channelId).at(-1)).toMatchObject({
      genId,
      status: 'confirmed',
      content: '<p>Arrived live</p>',
    });

    release();
    const stored = await firstValueFrom(
      window$.pipe(filter((win) => win.messages.some((m) => m.genId === genId))),
    );
    expect(shown(stored, channelId).filter((m) => m.genId === genId)).toHaveLength(1);
  });

  it('stays hidden when it is deleted before the store wrote it, and is not told for a closed channel', async () => {
    const { ws, channelId, window$ } = await openGeneralOnline();
    const { id, genId } = await postAs('<p>Soon gone</p>');
    await expect.poll(() => echoesOf(channelId).some((m) => m.genId === genId)).toBe(true);
    const owner = await connect(w.server, ws.owner.token);
    const removed = await owner.emitWithAck('deleteMessage', {
      institutionId: ws.id,
      channelId,
      messageId: id,
    });
    owner.disconnect();
    expect(removed).not.toHaveProperty('error');
    release();
    await expect.poll(async () => (await w.stored(genId)).deletedAt).not.toBeNull();
    const after = await firstValueFrom(window$);
    expect(after.held.has(genId)).toBe(true);
    expect(shown(after, channelId).some((m) => m.genId === genId)).toBe(false);

    // A channel no tab shows: stored as ever, never shown ahead of the store.
    const quiet = await makeChannel(ws.owner, ws);
    await w.me.api.post(`/api/institutions/${ws.id}/channels/${quiet.id}/members`);
    await refreshJoinedChannels(ws.id);
    const { genId: elsewhere } = await postAs('<p>Elsewhere</p>', quiet.id);
    await expect
      .poll(async () => (await w.client.db.messages.findOne(elsewhere).exec())?.status)
      .toBe('confirmed');
    expect(echoesOf(quiet.id)).toHaveLength(0);
  });
});
