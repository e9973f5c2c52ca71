// Outbox writes on the store: a send is a pending message row plus an outbox row, written together,
// before any network. Shared by the tab's actions and the worker's push loop.
import type { RxCollection } from 'rxdb';
import { isMessageActionOperation, type MessageDoc, type OutboxDoc } from '../../schemas/collections.ts';
import type { Attachment, Mention, Message, StarredMessage } from '../../schemas/protocol.ts';
import { newGenId } from './gen-id.ts';
import { mergeServerMessage, type QueuedOperation } from './message-merge.ts';
import { afterSend, nextOrder, retry, type SendResult } from './outbox-state.ts';

export interface OutboxCollections {
  messages: RxCollection<MessageDoc>;
  outbox: RxCollection<OutboxDoc>;
}

export interface NewPost {
  institutionId: string;
  channelId: string;
  memberId: string;
  content: string;
  replyTo?: string | null;
  mentions?: Mention[];
  attachments?: Attachment[];
}

/** Local echo: the message is pending at once; returns its genId. */
export async function enqueuePost(
  db: OutboxCollections,
  post: NewPost,
  now: number = Date.now(),
): Promise<string> {
  const genId = newGenId(now);
  const createdAt = new Date(now).toISOString();
  const replyTo = post.replyTo ?? null;
  const attachments = post.attachments ?? [];
  const mentions = post.mentions ?? [];
  await db.messages.insert({
    genId,
    id: null,
    status: 'pending',
    institutionId: post.institutionId,
    channelId: post.channelId,
    memberId: post.memberId,
    content: post.content,
    replyTo,
    attachments,
    mentions,
    createdAt,
    editedAt: null,
    deletedAt: null,
    seq: 0,
    createdSeq: 0,
    reactions: [],
    isPinned: false,
    poll: null,
    forwardedFrom: null,
    agentAnswer: null,
    isStarred: false,
    base: null,
  });
  await db.outbox.insert({
    key: genId,
    order: nextOrder(now),
    state: 'queued',
    institutionId: post.institutionId,
    channelId: post.channelId,
    genId,
    operation: { kind: 'post', content: post.content, replyTo, attachments, mentions },
    attempts: 0,
    lastError: null,
    createdAt,
  });
  return genId;
}

/** This message's operations still in the outbox (not the post itself), oldest first. */
export async function queuedOperations(db: OutboxCollections, genId: string): Promise<QueuedOperation[]> {
  const rows = await db.outbox.find({ selector: { genId } }).exec();
  return rows
    .map((r) => r.toJSON() as OutboxDoc)
    .sort((a, b) => a.order - b.order)
    .flatMap((r) =>
      isMessageActionOperation(r.operation) ? [{ operation: r.operation, createdAt: r.createdAt }] : [],
    );
}

/**
 * Stores a server copy (ack, live event, pull): confirms by genId, never downgrades, and keeps this
 * person's queued operations laid over it. Returns true when the row was new.
 */
export async function applyServerMessage(
  db: OutboxCollections,
  message: Message | StarredMessage,
): Promise<boolean> {
  let isNew = false;
  const existing = await db.messages.findOne(message.genId).exec();
  if (!existing) {
    const next = mergeServerMessage(null, message, await queuedOperations(db, message.genId));
    try {
      if (next) await db.messages.insert(next);
      isNew = true;
    } catch (error) {
      // Another path (ack, live event, pull, another tab) inserted it first: merge into that row.
      if (!isConflict(error)) throw error;
    }
  }
  if (!isNew) {
    const row = existing ?? (await db.messages.findOne(message.genId).exec());
    const queued = await queuedOperations(db, message.genId);
    await row?.incrementalModify((d) => mergeServerMessage(d as MessageDoc, message, queued) ?? d);
  }
  // Confirmed by any path: the post no longer needs sending.
  await removeOutboxRow(db, message.genId);
  return isNew;
}

/** Removes an outbox row; a row already gone (removed concurrently) is fine. */
export async function removeOutboxRow(db: OutboxCollections, key: string): Promise<void> {
  const row = await db.outbox.findOne(key).exec();
  if (!row) return;
  try {
    await row.incrementalRemove();
  } catch (error) {
    if (!isConflict(error)) throw error;
  }
}

function isConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'CONFLICT';
}

/** Records the outcome of one send. */
export async function applySendResult(
  db: OutboxCollections,
  entry: OutboxDoc,
  result: SendResult,
): Promise<void> {
  if (result.kind === 'ok') {
    await applyServerMessage(db, result.message);
    return;
  }
  const current = await db.outbox.findOne(entry.key).exec();
  if (!current) return; // discarded while in flight
  const t = afterSend(current.toJSON() as OutboxDoc, result);
  if (t.entry)
    await current.incrementalPatch({
      state: t.entry.state,
      attempts: t.entry.attempts,
      lastError: t.entry.lastError,
    });
  await setUnconfirmedStatus(db, entry.genId, t.messageStatus);
}

/**
 * Sets a message's delivery status unless it is confirmed, decided on the freshest row: an ack, live
 * event or pull may confirm it while a timed-out send is being recorded, and a patch computed from an
 * older snapshot would turn it back to pending with no outbox row left to ever confirm it again.
 */
async function setUnconfirmedStatus(
  db: OutboxCollections,
  genId: string,
  status: MessageDoc['status'],
): Promise<void> {
  const message = await db.messages.findOne(genId).exec();
  await message?.incrementalModify((d) => (d.status === 'confirmed' ? d : { ...d, status }));
}

/** Retry: failed → pending, queued again. */
export async function retryMessage(db: OutboxCollections, genId: string): Promise<void> {
  const entry = await db.outbox.findOne(genId).exec();
  if (!entry) return;
  const t = retry(entry.toJSON() as OutboxDoc);
  await entry.incrementalPatch({ state: 'queued', lastError: t.entry?.lastError ?? null });
  await setUnconfirmedStatus(db, genId, t.messageStatus);
}

/** Deleting a pending or failed message removes it locally only (spec §4), with anything queued on it. */
export async function discardMessage(db: OutboxCollections, genId: string): Promise<void> {
  const message = await db.messages.findOne(genId).exec();
  if (message && message.status === 'confirmed') return;
  for (const row of await db.outbox.find({ selector: { genId } }).exec()) await removeOutboxRow(db, row.key);
  if (message) await message.incrementalRemove();
}
