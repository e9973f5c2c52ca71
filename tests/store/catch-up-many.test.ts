// A reconnect catches up every channel through the workspace change feed: one request for all of them,
// each channel's checkpoint written after its page is stored, and a channel the server will not let this
// person read (a stale or forged sync record) yields nothing and holds up no other channel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshJoinedChannels } from '../../src/data/channels.ts';
import { makeChannel, restPost } from '../server/messaging-world.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a catch-up of many channels', () => {
  it('asks once for every channel, stores each message once and moves every checkpoint', async () => {
    const { ws, me, client } = w;
    const room = await makeChannel(ws.owner, ws);
    await ws.owner.api.post(`/api/institutions/${ws.id}/channels/${room.id}/members/add`, {
      members: [me.memberId],
    });
    const secret = await makeChannel(ws.owner, ws, 'private');
    await refreshJoinedChannels(ws.id);
    await w.goOnline();
    await w.drained();
    w.goOffline();

    const missed = [];
    for (let i = 0; i < 3; i++) {
      missed.push(await restPost(ws.owner, ws, ws.general.id, `<p>general ${i}</p>`));
      missed.push(await restPost(ws.owner, ws, room.id, `<p>room ${i}</p>`));
    }
    await restPost(ws.owner, ws, secret.id, '<p>secret plans</p>');
    // A sync record for a channel this person is not in: the server must refuse it, channel by channel.
    await client.db.syncState.insert({ channelId: secret.id, institutionId: ws.id, checkpoint: 0 });

    w.engineRequests.length = 0;
    await w.goOnline();
    const lastSeq = new Map<string, number>();
    for (const m of missed) lastSeq.set(m.channelId, Math.max(lastSeq.get(m.channelId) ?? 0, m.seq));
    const caughtUp = async () => {
      const states = await client.db.syncState.find().exec();
      return [...lastSeq].every(([channelId, seq]) =>
        states.some((s) => s.channelId === channelId && s.checkpoint >= seq),
      );
    };
    const until = Date.now() + 15_000;
    while (!(await caughtUp()) && Date.now() < until) await pause(20);
    await w.drained();

    expect(await caughtUp()).toBe(true);
    for (const m of missed) expect((await w.stored(m.genId))?.status).toBe('confirmed');
    const stored = await client.db.messages.find().exec();
    expect(new Set(stored.map((m) => m.genId)).size).toBe(stored.length);
    expect(stored.some((m) => m.content.includes('secret plans'))).toBe(false);
    expect((await client.db.syncState.findOne(secret.id).exec())?.checkpoint ?? 0).toBe(0);

    const feeds = w.engineRequests.filter((r) => r === `POST /api/institutions/${ws.id}/messages/changes`);
    const perChannel = w.engineRequests.filter((r) => /\/channels\/[^/]+\/messages\/changes$/.test(r));
    expect(feeds.length).toBeGreaterThanOrEqual(1);
    expect(perChannel).toEqual([]);
  });
});
