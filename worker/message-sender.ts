// The sender of queued message operations: sends one over the socket and classifies the answer (the
// outcome is recorded by acknowledgement.ts): posts (after their attachments are uploaded), new polls,
// and the actions on a message (edit, delete, react, pin, star, vote, close, forward), each with its
// idempotency key.
import type { MessageOperation, OutboxDoc, PostOperation } from '../schemas/collections.ts';
import type { SendResult } from '../src/store/outbox-state.ts';
import { resolveAttachments } from '../src/store/uploads.ts';
import { classifyAck } from './acknowledgement.ts';
import { emitWithAck, type LanternSocket } from './socket.ts';
import type { SyncDatabase } from './sync-database.ts';
import type { Uploader } from './uploader.ts';

export interface MessageSenderDeps {
  db: SyncDatabase;
  socket: LanternSocket;
  ackTimeoutMs: number;
  uploader: Uploader | null;
}

/** The message's server id, or null while its post has not been stored. */
async function serverId(db: SyncDatabase, genId: string): Promise<string | null> {
  const doc = await db.messages.findOne(genId).exec();
  return doc?.id ?? doc?.base?.id ?? null;
}

export async function sendMessageOperation(
  deps: MessageSenderDeps,
  entry: OutboxDoc,
  op: MessageOperation,
): Promise<SendResult> {
  const { socket, ackTimeoutMs } = deps;
  const ref = { institutionId: entry.institutionId, channelId: entry.channelId };
  try {
    let ack: unknown;
    if (op.kind === 'post') {
      const attachments = await postAttachments(deps, op);
      if (attachments.kind !== 'ready') return attachments.result;
      ack = await emitWithAck(
        socket,
        'postMessage',
        {
          ...ref,
          genId: entry.genId,
          content: op.content,
          replyTo: op.replyTo,
          attachments: attachments.attachments,
          mentions: op.mentions,
        },
        ackTimeoutMs,
      );
    } else if (op.kind === 'pollCreate') {
      const { question, options, multiple } = op;
      ack = await emitWithAck(
        socket,
        'createPoll',
        { ...ref, opId: op.opId, genId: entry.genId, question, options, multiple },
        ackTimeoutMs,
      );
    } else {
      const messageId = await serverId(deps.db, entry.genId);
      if (!messageId) return { kind: 'error', message: 'This message has not been sent yet' };
      const target = { ...ref, messageId, opId: op.opId };
      switch (op.kind) {
        case 'edit':
          ack = await emitWithAck(
            socket,
            'editMessage',
            { ...ref, messageId, content: op.content, mentions: op.mentions },
            ackTimeoutMs,
          );
          break;
        case 'delete':
          ack = await emitWithAck(socket, 'deleteMessage', { ...ref, messageId }, ackTimeoutMs);
          break;
        case 'reaction':
          ack = await emitWithAck(
            socket,
            'toggleReaction',
            { ...target, emoji: op.emoji, reacted: op.reacted },
            ackTimeoutMs,
          );
          break;
        case 'pin':
          ack = await emitWithAck(socket, 'togglePinMessage', { ...target, pinned: op.pinned }, ackTimeoutMs);
          break;
        case 'star':
          ack = await emitWithAck(
            socket,
            'toggleStarredMessage',
            { ...target, starred: op.starred },
            ackTimeoutMs,
          );
          break;
        case 'pollVote':
          ack = await emitWithAck(
            socket,
            'voteOnPoll',
            { ...target, optionIndexes: op.optionIndexes },
            ackTimeoutMs,
          );
          break;
        case 'pollUnvote':
          ack = await emitWithAck(socket, 'removeVoteOnPoll', target, ackTimeoutMs);
          break;
        case 'pollClose':
          ack = await emitWithAck(socket, 'closePoll', target, ackTimeoutMs);
          break;
        case 'forward':
          ack = await emitWithAck(
            socket,
            'forwardMessage',
            { ...target, channelIds: op.channelIds, genIds: op.genIds },
            ackTimeoutMs,
          );
          break;
      }
    }
    return classifyAck(ack);
  } catch (error) {
    return classifyAck(undefined, error);
  }
}

type PostAttachments =
  | { kind: 'ready'; attachments: PostOperation['attachments'] }
  | { kind: 'blocked'; result: SendResult };

/**
 * A post goes only once its files are uploaded and registered: an upload still queued is started now
 * (the channel's later rows wait behind it, keeping the order); a failed one fails the post ("Upload
 * failed", Retry retries the upload too).
 */
async function postAttachments(deps: MessageSenderDeps, op: PostOperation): Promise<PostAttachments> {
  if (!op.attachments.some((a) => a.isUploading)) return { kind: 'ready', attachments: op.attachments };
  const records = deps.db.records;
  if (!records) return { kind: 'blocked', result: { kind: 'error', message: 'Upload failed' } };
  let state = await resolveAttachments({ records }, op.attachments);
  if (state.kind === 'waiting' && deps.uploader) {
    for (const id of state.ids) await deps.uploader.upload(id);
    state = await resolveAttachments({ records }, op.attachments);
  }
  if (state.kind === 'ready') return { kind: 'ready', attachments: state.attachments };
  if (state.kind === 'failed') return { kind: 'blocked', result: { kind: 'error', message: state.message } };
  return { kind: 'blocked', result: { kind: 'transient', reason: 'waiting for uploads' } };
}
