// Retry in any tab sends at once: a failed row queued again is noticed by the sync engine itself, not
// only when the tab that retried nudges its own worker (in the fallback that worker may not own the
// socket, and nothing else would send it before the next reconnect or refresh).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxDoc } from '../../schemas/collections.ts';
import { enqueuePost, retryMessage } from '../../src/store/outbox.ts';
import { applySendResult } from '../../worker/acknowledgement.ts';
import { type EngineWorld, startEngineWorld } from './engine-world.ts';

let w: EngineWorld;

beforeAll(async () => {
  w = await startEngineWorld();
}, 60_000);

afterAll(async () => {
  await w?.close();
});

describe('a failed message retried in another tab', () => {
  it('is sent at once by the connected engine, with no nudge from the tab', async () => {
    const { ws, client } = w;
    w.goOffline();
    const genId = await enqueuePost(client.db, {
      institutionId: ws.id,
      channelId: ws.general.id,
      memberId: w.me.memberId,
      content: '<p>second try</p>',
    });
    const row = (await client.db.outbox.findOne(genId).exec())?.toJSON() as OutboxDoc;
    await applySendResult(client.db, row, { kind: 'error', message: 'The server was busy' });
    expect((await w.stored(genId)).status).toBe('failed');

    w.engineRequests.length = 0;
    await w.goOnline();
    // The catch-up after connecting (pull, then a drain that skips the failed row) is over.
    const caughtUp = Date.now() + 10_000;
    while (!w.engineRequests.some((r) => r.endsWith('/messages/changes')) && Date.now() < caughtUp)
      await new Promise((r) => setTimeout(r, 20));
    await w.engine.settled();
    await new Promise((r) => setTimeout(r, 1_000));
    await w.engine.settled();
    expect(await w.onServer(genId)).toBeUndefined();

    // What Retry writes, and nothing else: no drainOutbox call reaches the engine.
    await retryMessage(client.db, genId);
    const until = Date.now() + 3_000;
    while (!(await w.onServer(genId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await w.onServer(genId)).toMatchObject({ genId, content: '<p>second try</p>' });
  });
});
