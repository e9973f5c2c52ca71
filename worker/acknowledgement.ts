// Acknowledgements, in one place: what the server answered to a queued operation becomes a SendResult
// (classifyAck), and a SendResult becomes store writes (recordResult): an accepted post or action
// leaves the outbox and its server copy enters the store through src/store/messages.ts; a refusal
// fails the post, or rolls an action back with a notice (decision 0006); a section change refused or
// accepted leaves the outbox and the server's layout wins; anything transient stays queued.
import { isMessageActionOperation, isSectionOperation, type OutboxDoc } from '../schemas/collections.ts';
import { isAckError, type Message } from '../schemas/protocol/index.ts';
import { rejectOperation, settleOperations } from '../src/store/message-outbox.ts';
import { applyServerMessage } from '../src/store/messages.ts';
import { type OutboxCollections, removeOutboxRow, setUnconfirmedStatus } from '../src/store/outbox.ts';
import { afterSend, type SendResult } from '../src/store/outbox-state.ts';
import { storeSections } from '../src/store/section-outbox.ts';
import { applyStar } from '../src/store/stars.ts';
import { forgetUpload } from '../src/store/uploads.ts';
import { applyChannelMessage } from './apply.ts';
import type { WorkerEvents } from './events.ts';
import type { SyncDatabase } from './sync-database.ts';

/** Turns an acknowledgement (or the emit's rejection) into a SendResult. */
export function classifyAck(ack: unknown, failure?: unknown): SendResult {
  if (failure !== undefined) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    return { kind: 'transient', reason };
  }
  if (isAckError(ack))
    return { kind: 'error', message: ack.error.message, retryable: ack.error.retryable === true };
  if (Array.isArray(ack) && ack.every((m) => typeof m === 'object' && m !== null && 'genId' in m))
    return { kind: 'many', messages: ack as Message[] };
  if (typeof ack === 'object' && ack !== null && 'genId' in ack && 'seq' in ack) {
    return { kind: 'ok', message: ack as Message };
  }
  return { kind: 'error', message: 'Unexpected acknowledgement' };
}

export interface RecordDeps {
  db: SyncDatabase;
  /** Reloads a workspace's sections from the server (a refused change: the server's layout wins). */
  refreshSections(institutionId: string): Promise<void>;
  log(message: string, error?: unknown): void;
  /** A refused action left a notice: tell the tabs now (the stored notice stays until one shows it). */
  notify?(notice: WorkerEvents['notice']): void;
}

/** Records the outcome of any queued operation in the store. */
export async function recordResult(deps: RecordDeps, entry: OutboxDoc, result: SendResult): Promise<void> {
  if (isSectionOperation(entry.operation)) return recordSectionResult(deps, entry, result);
  await recordMessageResult(deps.db, entry, result, deps.notify);
}

/** Records the outcome of a message operation in the store. */
export async function recordMessageResult(
  db: SyncDatabase,
  entry: OutboxDoc,
  result: SendResult,
  notify?: RecordDeps['notify'],
): Promise<void> {
  const op = entry.operation;
  const action = isMessageActionOperation(op);
  if (result.kind === 'ok' || result.kind === 'many') {
    // The acknowledged operation leaves the outbox first, so the server copy is not replayed under it.
    await removeOutboxRow(db, entry.key);
    const messages: Message[] = result.kind === 'ok' ? [result.message] : result.messages;
    for (const m of messages) await applyChannelMessage(db, m, { isLive: true });
    if (action) await settleOperations(db, entry.genId);
    // This device's own star joins the list that tells it later what was undone elsewhere (decision 0082).
    if (op.kind === 'star' && db.records && result.kind === 'ok' && result.message.isStarred !== undefined)
      await applyStar(db, { ...result.message, isStarred: result.message.isStarred });
    if (op.kind === 'post' && db.records && result.kind === 'ok')
      for (const a of result.message.attachments) await forgetUpload({ records: db.records }, a.id);
    return;
  }
  if (result.kind === 'error' && action) {
    const notice = await rejectOperation(db, entry, result.message);
    notify?.({ ...notice, institutionId: entry.institutionId });
    return;
  }
  await applySendResult(db, entry, result);
}

/**
 * A section change: accepted → its row goes and the server's layout (with what is still queued laid
 * over it) is stored; refused → the row goes too (nobody can retry it) and the server's layout wins.
 */
async function recordSectionResult(deps: RecordDeps, entry: OutboxDoc, result: SendResult): Promise<void> {
  const { db } = deps;
  if (result.kind === 'transient') return applySendResult(db, entry, result);
  // A tab may be queueing its next change while this answer is stored: section rows it writes from now on
  // are newer than this answer and stay, even if its outbox row was not there to be laid over it yet.
  const answeredAt = Date.now();
  await removeOutboxRow(db, entry.key);
  if (result.kind === 'error') deps.log(`Section change refused: ${result.message}`);
  const records = db.records;
  if (!records) return;
  if (result.kind === 'applied' && result.sections)
    return storeSections({ records, outbox: db.outbox }, entry.institutionId, result.sections, answeredAt);
  await deps.refreshSections(entry.institutionId).catch((e) => deps.log('Sections refresh failed', e));
}

/** The store side of one send: an accepted post is confirmed by its server copy; else the entry's state. */
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
      retryable: t.entry.retryable ?? true,
    });
  await setUnconfirmedStatus(db, entry.genId, t.messageStatus);
}
