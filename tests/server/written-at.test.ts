// Decision 0044: a message keeps the time it was written (its UUIDv7 genId's timestamp), bounded by the
// server: never in the future, never older than an outbox may hold; anything else gets the server's time.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../schemas/protocol/index.ts';
import { uuidV7Time, WRITTEN_AT_MAX_AGE_MS, writtenAt } from '../../server/messages/written-at.ts';
import { newGenId } from '../../src/store/gen-id.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { disconnectAll, makeWorkspace, messagesUrl, type Workspace } from './messaging-world.ts';

const MINUTE = 60_000;

describe('the written-at rule', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');

  it('reads the millisecond a UUIDv7 was made, and nothing from other ids', () => {
    const t = Date.parse('2026-11-25T11:50:00.123Z');
    expect(uuidV7Time(newGenId(t))).toBe(t);
    expect(uuidV7Time(randomUUID())).toBeNull();
    expect(uuidV7Time('not-a-uuid')).toBeNull();
    expect(uuidV7Time('0190a000-0000-7000-c000-000000000000')).toBeNull(); // wrong variant
  });

  it('keeps a time written up to seven days before arrival', () => {
    const tenMinutesAgo = now.getTime() - 10 * MINUTE;
    expect(writtenAt(newGenId(tenMinutesAgo), now).getTime()).toBe(tenMinutesAgo);
    const edge = now.getTime() - WRITTEN_AT_MAX_AGE_MS;
    expect(writtenAt(newGenId(edge), now).getTime()).toBe(edge);
  });

  it('uses the arrival time for a future, too old or non-v7 id', () => {
    expect(writtenAt(newGenId(now.getTime() + 1), now)).toEqual(now);
    expect(writtenAt(newGenId(now.getTime() + 365 * 24 * 60 * MINUTE), now)).toEqual(now);
    expect(writtenAt(newGenId(now.getTime() - WRITTEN_AT_MAX_AGE_MS - 1), now)).toEqual(now);
    expect(writtenAt(newGenId(0), now)).toEqual(now);
    expect(writtenAt('ffffffff-ffff-7fff-bfff-ffffffffffff', now)).toEqual(now);
    expect(writtenAt(randomUUID(), now)).toEqual(now);
  });
});

describe.each(databases)('posts keep the time they were written on %s', (kind) => {
  let t: TestServer;
  let ws: Workspace;

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  const post = async (genId: string) => {
    const before = Date.now();
    const res = await ws.owner.api.post<Message>(messagesUrl(ws, ws.general.id), {
      content: '<p>written offline</p>',
      genId,
    });
    expect(res.status).toBe(201);
    return { message: res.body, before, after: Date.now() };
  };
  const stored = async (genId: string) => {
    const page = await ws.owner.api.get<{ data: Message[] }>(messagesUrl(ws, ws.general.id));
    return page.body.data.find((m) => m.genId === genId);
  };

  it('stores and answers the time a message was written an hour ago offline', async () => {
    const written = Date.now() - 60 * MINUTE;
    const genId = newGenId(written);
    const { message } = await post(genId);
    expect(Date.parse(message.createdAt)).toBe(written);
    expect(Date.parse((await stored(genId))?.createdAt ?? '')).toBe(written);
  });

  it('dates a message from the future, or from last month, at its arrival instead', async () => {
    for (const claimed of [Date.now() + 24 * 60 * MINUTE, Date.now() - 30 * 24 * 60 * MINUTE]) {
      const { message, before, after } = await post(newGenId(claimed));
      const at = Date.parse(message.createdAt);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(after + 1000);
    }
  });

  it('dates a post whose id is not a UUIDv7 at its arrival', async () => {
    const { message, before, after } = await post(randomUUID());
    const at = Date.parse(message.createdAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(after + 1000);
  });
});
