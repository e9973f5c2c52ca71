// The tab's message actions and the worker's sync engine against a real server (issue 4): actions made
// while offline show at once and reach the server exactly once after reconnecting, a refused one is
// rolled back with the server's message, and search falls back to this device while offline.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../schemas/protocol/index.ts';
import { togglePinMessage, toggleReaction, toggleStarredMessage } from '../../src/data/messages.ts';
import { searchMessages } from '../../src/data/search.ts';
import { listRecords } from '../../src/store/records.ts';
import { collect, connect, restPost } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe('message actions made offline', () => {
  it('show at once and reach the server exactly once after reconnecting', async () => {
    const { ws, me } = w;
    const posted = await restPost(ws.owner, ws, ws.general.id, '<p>Launch on Friday?</p>');
    await w.goOnline();
    await w.engine.pullChannel(ws.general.id);
    const watcher = await connect(w.server, ws.owner.token);
    await watcher.emitWithAck('joinChannel', { institutionId: ws.id, channelId: ws.general.id });
    const edits = collect(watcher, 'newEditMessage');

    w.goOffline();
    await toggleReaction(posted.genId, '🚀');
    await toggleStarredMessage(posted.genId);
    const local = await w.stored(posted.genId);
    const mine = [{ emoji: '🚀', count: 1, memberIds: [me.memberId] }];
    expect(local.reactions).toEqual(mine);
    expect(local.isStarred).toBe(true);
    expect((await w.onServer(posted.genId))?.reactions).toEqual([]);

    await w.goOnline();
    await w.drained();

    expect((await w.onServer(posted.genId))?.reactions).toEqual(mine);
    expect(edits.filter((m) => m.genId === posted.genId)).toHaveLength(1);
    const after = await w.stored(posted.genId);
    expect(after.reactions).toEqual(mine);
    expect(after.isStarred).toBe(true);
    expect(after.base).toBeNull();
    const starred = await me.api.get<{ data: { message: Message }[] }>(
      `/api/institutions/${ws.id}/channels/${ws.general.id}/messages/starred?page=1`,
    );
    expect(starred.body.data.map((i) => i.message.genId)).toEqual([posted.genId]);
  });

  it('a refused one is rolled back and the server message is kept as a notice', async () => {
    const { ws } = w;
    const posted = await restPost(ws.owner, ws, ws.general.id, '<p>Pin me</p>');
    await w.goOnline();
    await w.engine.pullChannel(ws.general.id);
    w.goOffline();
    // A plain member may not pin in #general.
    await togglePinMessage(posted.genId);
    expect((await w.stored(posted.genId)).isPinned).toBe(true);

    await w.goOnline();
    await w.drained();

    expect((await w.stored(posted.genId)).isPinned).toBe(false);
    expect((await w.onServer(posted.genId))?.isPinned).toBe(false);
    const notice = (await listRecords(w.client.db, 'notice', { institutionId: ws.id })).find(
      (n) => n.genId === posted.genId,
    );
    expect(notice?.operation).toBe('pin');
    expect(notice?.message).toMatch(/pin/i);
  });
});

describe('stars made on another device', () => {
  /** Polls the store until `check` holds (the engine applies socket events and catch-up on its own). */
  async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('The store never showed it');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('show here while connected, and after coming back from being away', async () => {
    const { ws, me } = w;
    const agenda = await restPost(ws.owner, ws, ws.general.id, '<p>Agenda</p>');
    const minutes = await restPost(ws.owner, ws, ws.general.id, '<p>Minutes</p>');
    await w.goOnline();
    await w.engine.pullChannel(ws.general.id);
    const phone = await connect(w.server, me.token);
    const star = (m: Message, starred: boolean) =>
      phone.emitWithAck('toggleStarredMessage', {
        institutionId: ws.id,
        channelId: ws.general.id,
        messageId: m.id,
        opId: randomUUID(),
        starred,
      });
    // The starred panel's list of these two (an earlier test starred another message of #general).
    const listed = async () =>
      (await listRecords(w.client.db, 'starredMessage', { scope: ws.general.id }))
        .map((m) => m.genId)
        .filter((genId) => genId === agenda.genId || genId === minutes.genId);
    const starOf = async (m: Message) => (await w.stored(m.genId)).isStarred;

    await star(agenda, true);
    await until(async () => await starOf(agenda));
    expect(await listed()).toEqual([agenda.genId]);

    // Away: a star made and one undone on the phone reach this device with the catch-up.
    w.goOffline();
    await star(minutes, true);
    await star(agenda, false);
    expect([await starOf(agenda), await starOf(minutes)]).toEqual([true, false]);
    await w.goOnline();
    await until(async () => !(await starOf(agenda)) && (await starOf(minutes)));
    expect(await listed()).toEqual([minutes.genId]);
    phone.disconnect();
  });
});

describe('search', () => {
  it('offline, finds the messages on this device and says so', async () => {
    const { ws } = w;
    await restPost(ws.owner, ws, ws.general.id, '<p>The <em>Zebra</em> crossing</p>');
    await w.goOnline();
    await w.engine.pullChannel(ws.general.id);
    w.goOffline();
    const res = await searchMessages(ws.id, 'zebra');
    expect(res.source).toBe('device');
    expect(res.results.map((r) => r.highlight)).toEqual(['The <mark>Zebra</mark> crossing']);
  });

  it('online, asks the server', async () => {
    await w.goOnline();
    const res = await searchMessages(w.ws.id, 'zebra');
    expect(res.source).toBe('server');
    expect(res.results).toHaveLength(1);
  });
});
