// Message operations through the outbox (issue 4): each is applied to the stored message at once, over
// the message's `base` (the server's copy), and queued under an idempotency key (opId) so the worker sends
// it exactly once, in order with the channel's posts. A refused one is dropped and rolled back.
import type { RxCollection } from 'rxdb';
import type {
  MessageActionOperation,
  MessageDoc,
  Notice,
  OutboxDoc,
  PostOperation,
  RecordDoc,
} from '../../schemas/collections.ts';
import type { Mention } from '../../schemas/protocol/index.ts';
import { newGenId } from './gen-id.ts';
import { applyOperation, hasReacted, rebase, stripBase } from './message-ops.ts';
import { queuedOperations } from './messages.ts';
import { discardMessage, type OutboxCollections, removeOutboxRow } from './outbox.ts';
import { nextOrder } from './outbox-state.ts';
import { pendingMessage } from './pending-message.ts';
import { putRecord } from './records.ts';

/** Operations without the fields this file fills in. */
type OperationInput = MessageActionOperation extends infer O
  ? O extends MessageActionOperation
    ? Omit<O, 'opId' | 'memberId'>
    : never
  : never;

async function requireMessage(db: OutboxCollections, genId: string): Promise<MessageDoc> {
  const doc = await db.messages.findOne(genId).exec();
  if (!doc) throw new Error('This message is no longer here');
  return doc.toJSON() as MessageDoc;
}

/**
 * Queues one operation on a message and shows it at once. The outbox row goes first: a server copy
 * landing in between is rebased with it, and applying an operation twice changes nothing (toggles
 * carry their end state). Returns the opId.
 */
export async function enqueueMessageOperation(
  db: OutboxCollections,
  genId: string,
  memberId: string,
  input: OperationInput,
  now: number = Date.now(),
): Promise<string> {
  const message = await requireMessage(db, genId);
  const opId = newGenId(now);
  const operation = { ...input, opId, memberId } as MessageActionOperation;
  const createdAt = new Date(now).toISOString();
  await db.outbox.insert({
    key: opId,
    order: nextOrder(now),
    state: 'queued',
    institutionId: message.institutionId,
    channelId: message.channelId,
    genId,
    operation,
    attempts: 0,
    lastError: null,
    createdAt,
  });
  const row = await db.messages.findOne(genId).exec();
  await row?.incrementalModify((d) => {
    const base = d.base ?? stripBase(d as MessageDoc);
    return { ...applyOperation(stripBase(d as MessageDoc), operation, createdAt), base };
  });
  return opId;
}

/**
 * Edit: a message not yet sent has its queued post rewritten. A post that may already have reached the
 * server (an earlier try timed out) also gets an edit queued behind it, so the server's older copy cannot
 * win; a sent message gets an edit operation.
 */
export async function editMessage(
  db: OutboxCollections,
  genId: string,
  memberId: string,
  edit: { content: string; mentions?: Mention[] },
): Promise<void> {
  const mentions = edit.mentions ?? [];
  const post = await db.outbox.findOne(genId).exec();
  if (post && post.operation.kind === 'post') {
    const op = post.operation as PostOperation;
    // A refused post that was edited is a different post: sending it again may now succeed.
    await post.incrementalPatch({
      operation: { ...op, content: edit.content, mentions },
      ...(post.state === 'failed' ? { retryable: true } : {}),
    });
    const row = await db.messages.findOne(genId).exec();
    await row?.incrementalModify((d) =>
      d.status === 'confirmed'
        ? d
        : {
            ...d,
            content: edit.content,
            mentions,
            base: d.base ? { ...d.base, content: edit.content, mentions } : null,
          },
    );
    if (!(post.state === 'queued' && post.attempts > 0)) return;
  }
  await enqueueMessageOperation(db, genId, memberId, { kind: 'edit', content: edit.content, mentions });
}

/** Delete: a pending or failed message is only removed here; a sent one is deleted for everyone. */
export async function deleteMessage(db: OutboxCollections, genId: string, memberId: string): Promise<void> {
  const message = await requireMessage(db, genId);
  if (message.status !== 'confirmed') return discardMessage(db, genId);
  await enqueueMessageOperation(db, genId, memberId, { kind: 'delete' });
}

export async function toggleReaction(
  db: OutboxCollections,
  genId: string,
  memberId: string,
  emoji: string,
): Promise<void> {
  const message = await requireMessage(db, genId);
  const reacted = !hasReacted(message, emoji, memberId);
  await enqueueMessageOperation(db, genId, memberId, { kind: 'reaction', emoji, reacted });
}

export async function togglePin(db: OutboxCollections, genId: string, memberId: string): Promise<void> {
  const message = await requireMessage(db, genId);
  await enqueueMessageOperation(db, genId, memberId, { kind: 'pin', pinned: !message.isPinned });
}

export async function toggleStar(db: OutboxCollections, genId: string, memberId: string): Promise<void> {
  const message = await requireMessage(db, genId);
  await enqueueMessageOperation(db, genId, memberId, { kind: 'star', starred: !message.isStarred });
}

/** A new poll: a pending message at once (empty content, the poll), queued under its genId. */
export async function enqueuePoll(
  db: OutboxCollections,
  poll: {
    institutionId: string;
    channelId: string;
    memberId: string;
    question: string;
    options: string[];
    multiple: boolean;
  },
  now: number = Date.now(),
): Promise<string> {
  const genId = newGenId(now);
  const createdAt = new Date(now).toISOString();
  await db.messages.insert(
    pendingMessage({
      genId,
      institutionId: poll.institutionId,
      channelId: poll.channelId,
      memberId: poll.memberId,
      poll: {
        question: poll.question,
        options: poll.options.map((text) => ({ text, votes: 0, memberIds: [] })),
        multiple: poll.multiple,
        closedAt: null,
      },
      createdAt,
    }),
  );
  await db.outbox.insert({
    key: genId,
    order: nextOrder(now),
    state: 'queued',
    institutionId: poll.institutionId,
    channelId: poll.channelId,
    genId,
    operation: {
      kind: 'pollCreate',
      opId: genId,
      memberId: poll.memberId,
      question: poll.question,
      options: poll.options,
      multiple: poll.multiple,
    },
    attempts: 0,
    lastError: null,
    createdAt,
  });
  return genId;
}

/** Forward: pending copies show at once in every target channel; the server's list replaces them. */
export async function forwardMessage(
  db: OutboxCollections,
  genId: string,
  memberId: string,
  channelIds: string[],
  now: number = Date.now(),
): Promise<string[]> {
  const source = await requireMessage(db, genId);
  const genIds = channelIds.map(() => newGenId(now));
  const createdAt = new Date(now).toISOString();
  await db.messages.bulkInsert(
    channelIds.map((channelId, i) =>
      pendingMessage({
        genId: genIds[i] as string,
        institutionId: source.institutionId,
        channelId,
        memberId,
        content: source.content,
        attachments: source.attachments,
        poll: source.poll,
        agentAnswer: source.agentAnswer,
        forwardedFrom: { messageId: source.id ?? source.genId, channelId: source.channelId },
        createdAt,
      }),
    ),
  );
  await enqueueMessageOperation(db, genId, memberId, { kind: 'forward', channelIds, genIds }, now);
  return genIds;
}

/**
 * The server refused an operation: it leaves the outbox, the message is rebuilt from its base with what
 * is still queued (the rollback), a forward's pending copies go, and a notice carries the server's words.
 */
export async function rejectOperation(
  db: OutboxCollections & { records: RxCollection<RecordDoc> },
  entry: OutboxDoc,
  message: string,
): Promise<Notice> {
  await removeOutboxRow(db, entry.key);
  await settleOperations(db, entry.genId);
  const op = entry.operation;
  if (op.kind === 'forward') {
    const copies = await db.messages.find({ selector: { genId: { $in: op.genIds } } }).exec();
    for (const copy of copies) if (copy.status !== 'confirmed') await copy.incrementalRemove();
  }
  const notice: Notice = {
    id: newGenId(),
    message,
    operation: op.kind,
    genId: entry.genId,
    createdAt: new Date().toISOString(),
  };
  await putRecord({ records: db.records }, 'notice', notice, {
    scope: entry.institutionId,
    institutionId: entry.institutionId,
  });
  return notice;
}

/** Rebuilds a message from its base and the operations still queued (base dropped when none are). */
export async function settleOperations(db: OutboxCollections, genId: string): Promise<void> {
  const queued = await queuedOperations(db, genId);
  const row = await db.messages.findOne(genId).exec();
  await row?.incrementalModify((d) => (d.base ? rebase(d.base, queued) : d));
}
