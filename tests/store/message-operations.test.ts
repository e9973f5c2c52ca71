// Message operations on the store (issue 4): shown at once, kept on top of server copies until
// acknowledged, rolled back with a notice when refused; edits of unsent messages rewrite the post.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageDoc, OutboxDoc } from '../../schemas/collections.ts';
import type { LanternDatabase } from '../../src/store/database.ts';
import { searchLocalMessages } from '../../src/store/local-search.ts';
import * as ops from '../../src/store/message-outbox.ts';
import { applyServerMessage } from '../../src/store/messages.ts';
import { discardMessage, enqueuePost } from '../../src/store/outbox.ts';
import { listRecords } from '../../src/store/records.ts';
import { recordMessageResult } from '../../worker/acknowledgement.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

const ME = 'me';
let db: LanternDatabase;

beforeEach(async () => {
  db = await openTestDatabase();
});
afterEach(async () => {
  await db.remove();
});

async function message(genId: string): Promise<MessageDoc> {
  return (await db.messages.findOne(genId).exec())?.toJSON() as MessageDoc;
}
async function outboxRows(): Promise<OutboxDoc[]> {
  return (await db.outbox.find().exec())
    .map((d) => d.toJSON() as OutboxDoc)
    .sort((a, b) => a.order - b.order);
}

describe('a reaction, pin or star', () => {
  it('shows on the message at once and is queued with its own idempotency key', async () => {
    const m = makeServerMessage();
    await applyServerMessage(db, m);
    await ops.toggleReaction(db, m.genId, ME, '👍');
    await ops.togglePin(db, m.genId, ME);
    await ops.toggleStar(db, m.genId, ME);
    const shown = await message(m.genId);
    expect(shown.reactions).toEqual([{ emoji: '👍', count: 1, memberIds: [ME] }]);
    expect(shown.isPinned).toBe(true);
    expect(shown.isStarred).toBe(true);
    const rows = await outboxRows();
    expect(rows.map((r) => r.operation.kind)).toEqual(['reaction', 'pin', 'star']);
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
    expect(rows.map((r) => r.key)).toEqual(rows.map((r) => ('opId' in r.operation ? r.operation.opId : '')));
  });

  it('toggling twice queues the end state of each (add, then remove)', async () => {
    const m = makeServerMessage();
    await applyServerMessage(db, m);
    await ops.toggleReaction(db, m.genId, ME, '🎉');
    await ops.toggleReaction(db, m.genId, ME, '🎉');
    expect((await message(m.genId)).reactions).toEqual([]);
    expect((await outboxRows()).map((r) => r.operation)).toMatchObject([
      { reacted: true },
      { reacted: false },
    ]);
  });

  it("stays on top of someone else's change that arrives while it is queued, until acknowledged", async () => {
    const m = makeServerMessage();
    await applyServerMessage(db, m);
    await ops.toggleReaction(db, m.genId, ME, '👍');
    const [row] = await outboxRows();
    // Bob reacts too: the live copy has only his reaction.
    const bobs = { ...m, seq: m.seq + 1, reactions: [{ emoji: '👍', count: 1, memberIds: ['bob'] }] };
    await applyServerMessage(db, bobs);
    expect((await message(m.genId)).reactions).toEqual([{ emoji: '👍', count: 2, memberIds: ['bob', ME] }]);
    // The ack carries both; the row leaves and nothing is laid over any more.
    const acked = { ...m, seq: m.seq + 2, reactions: [{ emoji: '👍', count: 2, memberIds: ['bob', ME] }] };
    await recordMessageResult(db, row as OutboxDoc, { kind: 'ok', message: acked });
    const after = await message(m.genId);
    expect(after.reactions).toEqual(acked.reactions);
    expect(after.base).toBeNull();
    expect(await outboxRows()).toEqual([]);
  });

  it('an older server copy never replaces a newer one', async () => {
    const m = makeServerMessage({ seq: 5, isPinned: true });
    await applyServerMessage(db, m);
    await applyServerMessage(db, { ...m, seq: 4, isPinned: false });
    expect((await message(m.genId)).isPinned).toBe(true);
  });
});

describe('a refused operation', () => {
  it('is rolled back, leaves the outbox and becomes a notice with the server message', async () => {
    const m = makeServerMessage();
    await applyServerMessage(db, m);
    await ops.togglePin(db, m.genId, ME);
    await ops.toggleReaction(db, m.genId, ME, '👀');
    const [pin] = await outboxRows();
    await recordMessageResult(db, pin as OutboxDoc, {
      kind: 'error',
      message: "You don't have permission to pin messages",
    });
    const shown = await message(m.genId);
    expect(shown.isPinned).toBe(false);
    // The reaction queued after it is still shown.
    expect(shown.reactions.map((r) => r.emoji)).toEqual(['👀']);
    expect((await outboxRows()).map((r) => r.operation.kind)).toEqual(['reaction']);
    const notices = await listRecords(db, 'notice', { institutionId: m.institutionId });
    expect(notices).toMatchObject([
      { message: "You don't have permission to pin messages", operation: 'pin' },
    ]);
  });

  it('a refused forward removes its pending copies', async () => {
    const m = makeServerMessage();
    await applyServerMessage(db, m);
    const [copy] = await ops.forwardMessage(db, m.genId, ME, ['c2']);
    expect((await message(copy as string)).status).toBe('pending');
    const [row] = await outboxRows();
    await recordMessageResult(db, row as OutboxDoc, {
      kind: 'error',
      message: 'Not a member of that channel',
    });
    expect(await db.messages.findOne(copy as string).exec()).toBeNull();
  });
});

describe('a message not yet sent', () => {
  it('an edit rewrites the queued post instead of queuing an edit', async () => {
    const genId = await enqueuePost(db, {
      institutionId: 'i1',
      channelId: 'c1',
      memberId: ME,
      content: '<p>helo</p>',
    });
    await ops.editMessage(db, genId, ME, { content: '<p>hello</p>' });
    const rows = await outboxRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.operation).toMatchObject({ kind: 'post', content: '<p>hello</p>' });
    expect((await message(genId)).content).toBe('<p>hello</p>');
  });

  it('an edit of a post whose earlier try timed out also queues an edit behind it (the server may hold the old text)', async () => {
    const genId = await enqueuePost(db, {
      institutionId: 'i1',
      channelId: 'c1',
      memberId: ME,
      content: '<p>v1</p>',
    });
    await (await db.outbox.findOne(genId).exec())?.incrementalPatch({
      attempts: 1,
      lastError: 'request timed out',
    });
    await ops.editMessage(db, genId, ME, { content: '<p>v2</p>' });
    expect(
      (await outboxRows()).map((r) => [r.operation.kind, 'content' in r.operation && r.operation.content]),
    ).toEqual([
      ['post', '<p>v2</p>'],
      ['edit', '<p>v2</p>'],
    ]);
    // The server's copy of v1 arrives (the lost ack): v2 stays shown until the edit is acknowledged.
    const stored = makeServerMessage({ genId, content: '<p>v1</p>' });
    await applyServerMessage(db, stored);
    expect((await message(genId)).content).toBe('<p>v2</p>');
  });

  it('a sent message gets an edit operation, shown at once with its edited mark', async () => {
    const m = makeServerMessage();
    await applyServerMessage(db, m);
    await ops.editMessage(db, m.genId, ME, { content: '<p>better</p>' });
    const shown = await message(m.genId);
    expect(shown.content).toBe('<p>better</p>');
    expect(shown.editedAt).not.toBeNull();
    expect((await outboxRows()).map((r) => r.operation.kind)).toEqual(['edit']);
  });

  it('deleting it removes it and what was queued on it, locally only', async () => {
    const genId = await enqueuePost(db, {
      institutionId: 'i1',
      channelId: 'c1',
      memberId: ME,
      content: '<p>x</p>',
    });
    await ops.toggleReaction(db, genId, ME, '👍');
    await ops.deleteMessage(db, genId, ME);
    expect(await db.messages.findOne(genId).exec()).toBeNull();
    expect(await outboxRows()).toEqual([]);
    await discardMessage(db, genId); // a second delete changes nothing
  });
});

describe('polls', () => {
  it('a new poll shows at once; a vote replaces the earlier one', async () => {
    const genId = await ops.enqueuePoll(db, {
      institutionId: 'i1',
      channelId: 'c1',
      memberId: ME,
      question: 'Lunch?',
      options: ['Pizza', 'Soup'],
      multiple: false,
    });
    expect((await message(genId)).poll?.question).toBe('Lunch?');
    await ops.enqueueMessageOperation(db, genId, ME, { kind: 'pollVote', optionIndexes: [0] });
    await ops.enqueueMessageOperation(db, genId, ME, { kind: 'pollVote', optionIndexes: [1] });
    expect((await message(genId)).poll?.options.map((o) => o.votes)).toEqual([0, 1]);
    await ops.enqueueMessageOperation(db, genId, ME, { kind: 'pollUnvote' });
    expect((await message(genId)).poll?.options.map((o) => o.votes)).toEqual([0, 0]);
    expect((await outboxRows()).map((r) => r.operation.kind)).toEqual([
      'pollCreate',
      'pollVote',
      'pollVote',
      'pollUnvote',
    ]);
  });
});

describe('search on this device', () => {
  it('finds stored messages by the plain text of their HTML, case-insensitively, newest first', async () => {
    const older = makeServerMessage({ content: '<p>The <strong>Quarterly</strong> report</p>' });
    const newer = makeServerMessage({ content: '<p>quarterly numbers &amp; the REPORT</p>' });
    const other = makeServerMessage({ content: '<p>lunch</p>' });
    const gone = makeServerMessage({ content: '', deletedAt: new Date().toISOString() });
    for (const m of [older, newer, other, gone]) await applyServerMessage(db, m);
    const stored = (await db.messages.find().exec()).map((d) => d.toJSON() as MessageDoc);
    const page = searchLocalMessages(stored, 'quarterly REPORT', 1, 10);
    expect(page.hits.map((h) => h.message.genId)).toEqual([newer.genId, older.genId]);
    expect(page.hits[0]?.highlight).toBe('<mark>quarterly</mark> numbers &amp; the <mark>REPORT</mark>');
    expect(searchLocalMessages(stored, '<strong>', 1, 10).total).toBe(0);
  });
});
