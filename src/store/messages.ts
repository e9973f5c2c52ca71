// Every server copy of a message (an acknowledgement, a live event, a pull, a search or list answer)
// enters the store here: confirmed by genId, never downgraded, with this person's queued operations
// laid over it, and its post taken out of the outbox.
import type { RxCollection } from 'rxdb';
import { isMessageActionOperation, type MessageDoc, type OutboxDoc } from '../../schemas/collections.ts';
import type { Message, StarredMessage } from '../../schemas/protocol/index.ts';
import { mergeServerMessage, type QueuedOperation } from './message-merge.ts';
import { isConflict, removeOutboxRow } from './outbox.ts';

interface MessageCollections {
  messages: RxCollection<MessageDoc>;
  outbox: RxCollection<OutboxDoc>;
}

/** This message's operations still in the outbox (not the post itself), oldest first. */
export async function queuedOperations(db: MessageCollections, genId: string): Promise<QueuedOperation[]> {
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
  db: MessageCollections,
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
