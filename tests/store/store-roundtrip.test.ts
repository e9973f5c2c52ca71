// The store's send path: local echo, ack, refusal, retry, discard (spec §4 message delivery).
import { afterEach, describe, expect, it } from 'vitest';
import type { LanternDatabase } from '../../src/store/database.ts';
import { discardMessage, enqueuePost, retryMessage } from '../../src/store/outbox.ts';
import { applySendResult } from '../../worker/acknowledgement.ts';
import { makeServerMessage, openTestDatabase } from './factories.ts';

let db: LanternDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const post = { institutionId: 'i1', channelId: 'c1', memberId: 'me', content: '<p>hi</p>' };

async function statusOf(genId: string) {
  return (await db!.messages.findOne(genId).exec())?.status ?? 'gone';
}

describe('store round trip', () => {
  it('writes a pending message and an outbox row at once, before any network', async () => {
    db = await openTestDatabase();
    const genId = await enqueuePost(db, post);
    expect(await statusOf(genId)).toBe('pending');
    const entry = await db.outbox.findOne(genId).exec();
    expect(entry?.state).toBe('queued');
    expect(entry?.operation).toMatchObject({ kind: 'post', content: '<p>hi</p>' });
  });

  it('confirms the message with the server’s copy when the ack arrives, and empties the outbox', async () => {
    db = await openTestDatabase();
    const genId = await enqueuePost(db, post);
    const entry = (await db.outbox.findOne(genId).exec())!.toMutableJSON();
    const server = makeServerMessage({ genId, memberId: 'me', content: '<p>hi</p>', seq: 7, createdSeq: 7 });
    await applySendResult(db, entry, { kind: 'ok', message: server });
    const row = (await db.messages.findOne(genId).exec())!;
    expect(row.status).toBe('confirmed');
    expect(row.id).toBe(server.id);
    expect(row.createdSeq).toBe(7);
    expect(await db.outbox.count().exec()).toBe(0);
    expect(await db.messages.count().exec()).toBe(1);
  });

  it('marks it failed on an error ack, pending again on retry, and removes it locally on discard', async () => {
    db = await openTestDatabase();
    const genId = await enqueuePost(db, post);
    const entry = (await db.outbox.findOne(genId).exec())!.toMutableJSON();
    await applySendResult(db, entry, { kind: 'error', message: 'You cannot post here' });
    expect(await statusOf(genId)).toBe('failed');
    await retryMessage(db, genId);
    expect(await statusOf(genId)).toBe('pending');
    expect((await db.outbox.findOne(genId).exec())?.state).toBe('queued');
    await discardMessage(db, genId);
    expect(await statusOf(genId)).toBe('gone');
    expect(await db.outbox.count().exec()).toBe(0);
  });

  it('keeps a message pending after a time-out', async () => {
    db = await openTestDatabase();
    const genId = await enqueuePost(db, post);
    const entry = (await db.outbox.findOne(genId).exec())!.toMutableJSON();
    await applySendResult(db, entry, { kind: 'transient', reason: 'request timed out' });
    expect(await statusOf(genId)).toBe('pending');
    expect((await db.outbox.findOne(genId).exec())?.attempts).toBe(1);
  });

  it('never lets an older server copy overwrite a newer edit', async () => {
    db = await openTestDatabase();
    const genId = await enqueuePost(db, post);
    const entry = (await db.outbox.findOne(genId).exec())!.toMutableJSON();
    const created = makeServerMessage({ genId, seq: 3, createdSeq: 3 });
    const edited = { ...created, content: '<p>edited</p>', seq: 5 };
    await applySendResult(db, entry, { kind: 'ok', message: edited });
    await applySendResult(db, entry, { kind: 'ok', message: created });
    expect((await db.messages.findOne(genId).exec())?.content).toBe('<p>edited</p>');
  });
});
