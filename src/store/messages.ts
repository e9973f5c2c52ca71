// Every server copy of a message (an acknowledgement, a live event, a pull, a search or list answer)
// enters the store here: confirmed by genId, never downgraded, with this person's queued operations
// laid over it, and its post taken out of the outbox.
import type { RxCollection } from 'rxdb';
import { isMessageActionOperation, type MessageDoc, type OutboxDoc } from '../../schemas/collections.ts';
import type { Message, StarredMessage } from '../../schemas/protocol/index.ts';
import { mergeServerMessage, type QueuedOperation } from './message-merge.ts';
import { isConflict, removeOutboxRow } from './outbox.ts';

export interface MessageCollections {
  messages: RxCollection<MessageDoc>;
  outbox: RxCollection<OutboxDoc>;
}

/** This message's operations still in the outbox (not the post itself), oldest first. */
export async function queuedOperations(db: MessageCollections, genId: string): Promise<QueuedOperation[]> {
  const rows = await db.outbox.find({ selector: { genId } }).exec();
  return operationsOf(rows.map((r) => r.toJSON() as OutboxDoc));
}

/** The message operations among outbox rows, oldest first. */
function operationsOf(rows: readonly OutboxDoc[]): QueuedOperation[] {
  return [...rows]
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
  // Both reads at once: a live message waits on them before the open channel can show it.
  const [existing, queuedNow] = await Promise.all([
    db.messages.findOne(message.genId).exec(),
    queuedOperations(db, message.genId),
  ]);
  if (!existing) {
    const next = mergeServerMessage(null, message, queuedNow);
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

/**
 * Stores many server copies at once (a pulled page) with the same outcome as applyServerMessage on each,
 * in a few bulk operations: one read of the outbox, every row inserted in one bulk write (in a catch-up
 * nearly all are new; the store reads the ones it already holds to refuse them), the refused ones merged
 * on their freshest state (RxDB batches those writes), then the confirmed posts leave the outbox.
 * Returns the genIds that were new.
 */
export async function applyServerMessages(
  db: MessageCollections,
  messages: readonly Message[],
): Promise<Set<string>> {
  // A page lists each message once; should one come twice, its newest change is the one that counts.
  const byGenId = new Map<string, Message>();
  for (const m of messages) {
    const seen = byGenId.get(m.genId);
    if (!seen || seen.seq < m.seq) byGenId.set(m.genId, m);
  }
  const isNew = new Set<string>();
  if (!byGenId.size) return isNew;
  const genIds = [...byGenId.keys()];
  const rowsByGenId = new Map<string, OutboxDoc[]>();
  for (const row of await db.outbox.find({ selector: { genId: { $in: genIds } } }).exec()) {
    const doc = row.toJSON() as OutboxDoc;
    rowsByGenId.set(doc.genId, [...(rowsByGenId.get(doc.genId) ?? []), doc]);
  }
  const queuedFor = (genId: string) => operationsOf(rowsByGenId.get(genId) ?? []);

  const inserted = await db.messages.bulkInsert(
    [...byGenId.values()].flatMap((m) => mergeServerMessage(null, m, queuedFor(m.genId)) ?? []),
  );
  const held = new Set<string>();
  for (const error of inserted.error) {
    if (error.status !== 409) throw new Error(`Could not store message ${error.documentId}`);
    held.add(error.documentId);
  }
  for (const genId of genIds) if (!held.has(genId)) isNew.add(genId);
  if (held.size) {
    // Already stored (a pending post of one's own, an earlier copy, or written by another path since):
    // merged as applyServerMessage merges, decided on each row's freshest state.
    const rows = await db.messages.findByIds([...held]).exec();
    await Promise.all(
      [...held].map((genId) => {
        const message = byGenId.get(genId) as Message;
        const row = rows.get(genId);
        // Removed in between (a discarded pending row): the single path inserts it again.
        if (!row) return applyServerMessage(db, message);
        const queued = queuedFor(genId);
        return row.incrementalModify((d) => mergeServerMessage(d as MessageDoc, message, queued) ?? d);
      }),
    );
  }

  // Confirmed: these posts no longer need sending. A post's row is written with its pending message,
  // before any send, so a page whose read found none has none; the ones found are read again (another
  // path may have removed them meanwhile).
  const postKeys = genIds.filter((genId) => rowsByGenId.get(genId)?.some((r) => r.key === genId));
  if (!postKeys.length) return isNew;
  const posts = await db.outbox.findByIds(postKeys).exec();
  if (posts.size) {
    const removed = await db.outbox.bulkRemove([...posts.values()]);
    // A row removed meanwhile (a conflict) is gone all the same.
    const failed = removed.error.find((e) => e.status !== 409);
    if (failed) throw new Error(`Could not remove outbox row ${failed.documentId}`);
  }
  return isNew;
}
