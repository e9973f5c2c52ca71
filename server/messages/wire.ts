// A stored message row as the wire shape every REST response and socket event carries.
import type { Attachment, Message } from '../../schemas/protocol/index.ts';
import type { messages } from '../db/schema.ts';

export type MessageRow = typeof messages.$inferSelect;

/** Our own download route, or an absolute http(s) address (a third-party file's, as registered). */
const SERVED_ADDRESS = /^(\/api\/files\/[\w-]+\/content|https?:\/\/[^/\\]+(\/.*)?)$/i;

/**
 * Attachments are written by the server from file rows (server/files/attachments.ts); an address of any
 * other form (a client-made '//evil.example/x' stored before that rule) is never handed to a client.
 */
function servedAttachments(attachments: Attachment[]): Attachment[] {
  return attachments.map((a) => (a.url === null || SERVED_ADDRESS.test(a.url) ? a : { ...a, url: null }));
}

export function toWireMessage(row: MessageRow): Message {
  return {
    id: row.id,
    genId: row.genId,
    channelId: row.channelId,
    institutionId: row.institutionId,
    memberId: row.memberId,
    content: row.content,
    replyTo: row.replyTo,
    attachments: servedAttachments(row.attachments),
    mentions: row.mentions,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    seq: row.seq,
    createdSeq: row.createdSeq,
    reactions: row.reactions.map((r) => ({
      emoji: r.emoji,
      count: r.memberIds.length,
      memberIds: r.memberIds,
    })),
    isPinned: row.pinnedAt !== null,
    poll: row.poll
      ? {
          ...row.poll,
          options: row.poll.options.map((o) => ({
            text: o.text,
            votes: o.memberIds.length,
            memberIds: o.memberIds,
          })),
        }
      : null,
    forwardedFrom: row.forwardedFrom ?? null,
    agentAnswer: row.agentAnswer ?? null,
  };
}
