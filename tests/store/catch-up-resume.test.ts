// A catch-up stopped between storing a page and writing its checkpoint (the worker killed, the tab
// closed) resumes from the old checkpoint on the next connect: the page is pulled again, lands once, and
// a post it confirmed is not sent again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangesResponse, Message, MessagePage } from '../../schemas/protocol/index.ts';
import { applyServerMessages } from '../../src/store/messages.ts';
import { enqueuePost } from '../../src/store/outbox.ts';
import { messagesUrl, restPost } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe('a catch-up stopped before its checkpoint', () => {
  it('pulls the page again on the next connect, and every message is stored once', async () => {
    const { ws, me, client } = w;
    const channelId = ws.general.id;
    w.goOffline();
    const before = (await client.db.syncState.findOne(channelId).exec())?.checkpoint ?? 0;
    for (let i = 0; i < 5; i++) await restPost(ws.owner, ws, channelId, `<p>while away ${i}</p>`);
    // My post made offline reached the server, but its acknowledgement was lost.
    const mine = await enqueuePost(client.db, {
      institutionId: ws.id,
      channelId,
      memberId: me.memberId,
      content: '<p>sent, never acknowledged</p>',
    });
    const sent = await me.api.post<Message>(messagesUrl(ws, channelId), {
      content: '<p>sent, never acknowledged</p>',
      genId: mine,
    });
    expect(sent.status).toBe(201);

    // The page as the puller stores it, then the stop: no checkpoint written.
    const page = await me.api.get<ChangesResponse>(
      `${messagesUrl(ws, channelId)}/changes?after=${before}&limit=500`,
    );
    await applyServerMessages(client.db, page.body.data);
    expect((await w.stored(mine)).status).toBe('confirmed');
    expect(await client.db.outbox.count().exec()).toBe(0);
    expect((await client.db.syncState.findOne(channelId).exec())?.checkpoint).toBe(before);

    await w.goOnline();
    await w.engine.pullChannel(channelId);
    await w.drained();

    expect((await client.db.syncState.findOne(channelId).exec())?.checkpoint).toBe(
      page.body.metadata.lastSeq,
    );
    const stored = await client.db.messages.find({ selector: { channelId } }).exec();
    expect(stored.filter((m) => m.status === 'confirmed')).toHaveLength(page.body.data.length);
    expect(new Set(stored.map((m) => m.genId)).size).toBe(stored.length);
    const onServer = await ws.owner.api.get<MessagePage>(`${messagesUrl(ws, channelId)}?page=1&limit=50`);
    expect(onServer.body.data.filter((m) => m.genId === mine)).toHaveLength(1);
  });
});
