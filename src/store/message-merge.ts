// How a server copy of a message lands on the local row: pairs by genId, confirms, never lets an older
// change (lower seq) overwrite a newer one, so acks, live events and pulls may arrive in any order, and
// keeps this person's operations still in the outbox laid over it until they are acknowledged.
import type { MessageActionOperation, MessageBase, MessageDoc } from '../../schemas/collections.ts';
import type { Message, StarredMessage } from '../../schemas/protocol/index.ts';
import { rebase, stripBase } from './message-ops.ts';

export function toConfirmedDoc(m: Message, isStarred = false): MessageDoc {
  return {
    genId: m.genId,
    id: m.id,
    status: 'confirmed',
    institutionId: m.institutionId,
    channelId: m.channelId,
    memberId: m.memberId,
    content: m.content,
    replyTo: m.replyTo,
    attachments: m.attachments,
    mentions: m.mentions,
    createdAt: m.createdAt,
    editedAt: m.editedAt,
    deletedAt: m.deletedAt,
    seq: m.seq,
    createdSeq: m.createdSeq,
    reactions: m.reactions ?? [],
    isPinned: m.isPinned ?? false,
    poll: m.poll ?? null,
    forwardedFrom: m.forwardedFrom ?? null,
    agentAnswer: m.agentAnswer ?? null,
    isStarred,
    base: null,
  };
}

/** An operation still queued for this message, with when it was made. */
export interface QueuedOperation {
  operation: MessageActionOperation;
  createdAt: string;
}

/**
 * The row to write, or null when nothing changes. The server copy replaces the base when it is newer
 * (by seq); stars are private (a star ack, messageStarred and REST reads carry the reader's `isStarred`,
 * with no new seq). Queued operations are replayed on top.
 */
export function mergeServerMessage(
  local: MessageDoc | null,
  server: Message | StarredMessage,
  queued: readonly QueuedOperation[] = [],
): MessageDoc | null {
  const localBase: MessageBase | null = local ? (local.base ?? stripBase(local)) : null;
  // A broadcast carries no star (stars are private): the row keeps its own.
  const starred = server.isStarred ?? localBase?.isStarred ?? false;
  let base: MessageBase;
  if (localBase === null || localBase.status !== 'confirmed' || localBase.seq < server.seq)
    base = stripBase(toConfirmedDoc(server, starred));
  else if (localBase.isStarred !== starred) base = { ...localBase, isStarred: starred };
  else if (!queued.length && !local?.base) return null;
  else base = localBase;
  return rebase(base, queued);
}
