// A pulled page is applied in bulk (applyServerMessages, MessageBatcher): the store must end exactly as
// applying each server copy alone leaves it — pending posts confirmed and out of the outbox once, older
// copies never replacing newer ones, queued operations kept on top, deletes and edits landing — and a
// page applied again (a stop between the page and its checkpoint) changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageDoc, OutboxDoc } from '../../schemas/collections.ts';
import type { Message } from '../../schemas/protocol/index.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { MessageBatcher } from '../../src/store/message-batcher.ts';
import { toggleReaction } from '../../src/store/message-outbox.ts';
import { applyServerMessage, applyServerMessages } from '../../src/store/messages.ts';
import { enqueuePost } from '../../src/store/outbox.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

const ME = 'me';
let bulk: LanternDatabase;
let single: LanternDatabase;

beforeEach(async () => {
  bulk = await openTestDatabase(['messages', 'outbox']);
  single = await openTestDatabase(['messages', 'outbox']);
});
afterEach(async () => {
  await bulk.remove();
  await single.remove();
});

const strip = ({ _meta, _rev, _attachments, _deleted, ...rest }: Record<string, unknown>) => rest;
async function contents(db: LanternDatabase) {
  const messages = (await db.messages.find().exec())
    .map((d) => strip(d.toJSON(true) as Record<string, unknown>) as unknown as MessageDoc)
    .sort((a, b) => (a.genId < b.genId ? -1 : 1));
  const outbox = (await db.outbox.find().exec())
    .map((d) => d.toJSON() as OutboxDoc)
    .sort((a, b) => a.order - b.order);
  return { messages, outbox };
}

/** The same starting store in both databases: a page's worth of history with local state on it. */
async function prepare() {
  // Someone's message, stored at seq 5; the page carries an older copy of it (seq 4).
  const newer = makeServerMessage({ seq: 5, createdSeq: 1, isPinned: true });
  // A message I reacted to while offline (queued); the page carries Bob's reaction on a newer copy.
  const reacted = makeServerMessage({ createdSeq: 2 });
  // A message edited and one deleted on the server since they were stored.
  const edited = makeServerMessage({ createdSeq: 3 });
  const deleted = makeServerMessage({ createdSeq: 4 });
  for (const m of [newer, reacted, edited, deleted]) await applyServerMessage(bulk, m);
  await toggleReaction(bulk, reacted.genId, ME, '👍');
  // My post, sent before the connection dropped and never acknowledged: pending, in the outbox.
  const mine = await enqueuePost(bulk, {
    institutionId: 'i1',
    channelId: 'c1',
    memberId: ME,
    content: '<p>hi</p>',
  });
  const start = await contents(bulk);
  await single.messages.bulkInsert(start.messages);
  await single.outbox.bulkInsert(start.outbox);

  const pending = start.messages.find((m) => m.genId === mine) as MessageDoc;
  const page: Message[] = [
    { ...newer, seq: 4, isPinned: false },
    { ...reacted, seq: 20, reactions: [{ emoji: '👍', count: 1, memberIds: ['bob'] }] },
    { ...edited, seq: 21, content: '<p>edited</p>', editedAt: new Date().toISOString() },
    { ...deleted, seq: 22, content: '', deletedAt: new Date().toISOString() },
    makeServerMessage({ seq: 23, createdSeq: 5 }),
    {
      ...makeServerMessage({ seq: 24, createdSeq: 6 }),
      genId: mine,
      memberId: ME,
      createdAt: pending.createdAt,
    },
    makeServerMessage({ seq: 25, createdSeq: 7, content: '', deletedAt: new Date().toISOString() }),
  ];
  return { page, mine, reacted, newer, edited, deleted };
}

describe('a pulled page applied in bulk', () => {
  it('leaves the store exactly as applying each message alone does', async () => {
    const { page, mine, reacted, newer, edited, deleted } = await prepare();
    const isNew = await applyServerMessages(bulk, page);
    for (const m of page) await applyServerMessage(single, m);

    const got = await contents(bulk);
    expect(got).toEqual(await contents(single));
    expect(isNew).toEqual(new Set([page[4]?.genId, page[6]?.genId]));

    const byId = new Map(got.messages.map((m) => [m.genId, m]));
    expect(byId.get(mine)).toMatchObject({ status: 'confirmed', seq: 24 });
    expect(byId.get(newer.genId)).toMatchObject({ seq: 5, isPinned: true });
    expect(byId.get(reacted.genId)?.reactions).toEqual([{ emoji: '👍', count: 2, memberIds: ['bob', ME] }]);
    expect(byId.get(edited.genId)?.content).toBe('<p>edited</p>');
    expect(byId.get(deleted.genId)?.deletedAt).not.toBeNull();
    // The post left the outbox; my reaction is still queued (not acknowledged yet).
    expect(got.outbox.map((r) => r.operation.kind)).toEqual(['reaction']);
  });

  it('applied again (a stop before its checkpoint was written) changes nothing', async () => {
    const { page } = await prepare();
    await applyServerMessages(bulk, page);
    const once = await contents(bulk);
    expect(await applyServerMessages(bulk, page)).toEqual(new Set());
    expect(await contents(bulk)).toEqual(once);
  });

  it('keeps the newest copy when a message comes twice', async () => {
    const m = makeServerMessage({ seq: 30 });
    await applyServerMessages(bulk, [
      { ...m, seq: 31, content: '<p>second</p>' },
      { ...m, content: '<p>first</p>' },
    ]);
    expect((await bulk.messages.findOne(m.genId).exec())?.content).toBe('<p>second</p>');
  });
});

describe('pages of several channels pulled at once', () => {
  it('each resolves once its own messages are stored', async () => {
    const batcher = new MessageBatcher(bulk);
    const pages = ['a', 'b', 'c', 'd'].map((channelId) =>
      Array.from({ length: 30 }, () => makeServerMessage({ channelId })),
    );
    await Promise.all(
      pages.map(async (page) => {
        await batcher.apply(page);
        const stored = await bulk.messages.findByIds(page.map((m) => m.genId)).exec();
        expect(stored.size).toBe(page.length);
      }),
    );
    expect(await bulk.messages.count().exec()).toBe(120);
  });
});
