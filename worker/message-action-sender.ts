// The sender of queued actions on a message (edit, delete, react, pin, star, vote, unvote, close,
// forward): sends one over the socket, each with its opId as idempotency key, once the message has a
// server id, and classifies the answer (acknowledgement.ts records it).
import type { MessageActionOperation, OutboxDoc } from '../schemas/collections.ts';
import type { SendResult } from '../src/store/outbox-state.ts';
import { classifyAck } from './acknowledgement.ts';
import { emitWithAck, type LanternSocket } from './socket.ts';
import type { SyncDatabase } from './sync-database.ts';

export interface MessageActionSenderDeps {
  db: SyncDatabase;
  socket: LanternSocket;
  ackTimeoutMs: number;
}

/** The message's server id, or null while its post has not been stored. */
async function serverId(db: SyncDatabase, genId: string): Promise<string | null> {
  const doc = await db.messages.findOne(genId).exec();
  return doc?.id ?? doc?.base?.id ?? null;
}

export async function sendMessageAction(
  deps: MessageActionSenderDeps,
  entry: OutboxDoc,
  op: MessageActionOperation,
): Promise<SendResult> {
  const { socket, ackTimeoutMs } = deps;
  const ref = { institutionId: entry.institutionId, channelId: entry.channelId };
  try {
    let ack: unknown;
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
    return classifyAck(ack);
  } catch (error) {
    return classifyAck(undefined, error);
  }
}
