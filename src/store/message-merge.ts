// How a server copy of a message lands on the local row: pairs by genId, confirms, and never lets an
// older change (lower seq) overwrite a newer one, so acks, live events and pulls may arrive in any order.
import type { MessageDoc } from '../../schemas/collections.ts';
import type { Message } from '../../schemas/protocol.ts';

export function toConfirmedDoc(m: Message): MessageDoc {
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
  };
}

/** The row to write, or null when the local row is already as new or newer. */
export function mergeServerMessage(local: MessageDoc | null, server: Message): MessageDoc | null {
  if (local && local.status === 'confirmed' && local.seq >= server.seq) return null;
  return toConfirmedDoc(server);
}
