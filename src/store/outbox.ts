// Outbox writes on the store: a send is a pending message row plus an outbox row, written together,
// before any network; retry and discard. Shared by the tab's actions and the worker's push loop.
import type { RxCollection } from 'rxdb';
import type { MessageDoc, OutboxDoc } from '../../schemas/collections.ts';
import type { Attachment, Mention } from '../../schemas/protocol/index.ts';
import { newGenId } from './gen-id.ts';
import { nextOrder, retry } from './outbox-state.ts';
import { pendingMessage } from './pending-message.ts';

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

/** A post's two rows, built before anything is written (the in-memory echo shows `message` at once). */
export interface PreparedPost {
  message: MessageDoc;
  outbox: OutboxDoc;
}

export function preparePost(post: NewPost, now: number = Date.now()): PreparedPost {
  const genId = newGenId(now);
  const createdAt = new Date(now).toISOString();
  const replyTo = post.replyTo ?? null;
  const attachments = post.attachments ?? [];
  const mentions = post.mentions ?? [];
  return {
    message: pendingMessage({
      genId,
      institutionId: post.institutionId,
      channelId: post.channelId,
      memberId: post.memberId,
      content: post.content,
      replyTo,
      attachments,
      mentions,
      createdAt,
    }),
    outbox: {
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
    },
  };
}

/**
 * The durable part of a send: the pending message row, then its outbox row. Should the outbox row fail,
 * the message row goes too, so no pending row is left that nothing will ever send.
 */
export async function writePost(db: OutboxCollections, post: PreparedPost): Promise<string> {
  const message = await db.messages.insert(post.message);
  try {
    await db.outbox.insert(post.outbox);
  } catch (error) {
    await message.incrementalRemove().catch(() => {});
    throw error;
  }
  return post.message.genId;
}

/** Local echo from the store: the message is pending once written; returns its genId. */
export async function enqueuePost(
  db: OutboxCollections,
  post: NewPost,
  now: number = Date.now(),
): Promise<string> {
  return writePost(db, preparePost(post, now));
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

export function isConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'CONFLICT';
}

/**
 * Sets a message's delivery status unless it is confirmed, decided on the freshest row: an ack, live
 * event or pull may confirm it while a timed-out send is being recorded, and a patch computed from an
 * older snapshot would turn it back to pending with no outbox row left to ever confirm it again.
 */
export async function setUnconfirmedStatus(
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
