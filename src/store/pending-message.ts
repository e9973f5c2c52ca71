// The one builder of a pending message: what a post, a new poll or a forwarded copy shows at once,
// before the server has it (no server id, no seq, status pending). Callers set only what differs.
import type { MessageDoc } from '../../schemas/collections.ts';

export type PendingMessageInput = Pick<MessageDoc, 'genId' | 'institutionId' | 'channelId' | 'memberId'> &
  Partial<
    Pick<
      MessageDoc,
      'content' | 'replyTo' | 'attachments' | 'mentions' | 'poll' | 'forwardedFrom' | 'agentAnswer'
    >
  > & {
    createdAt: string;
  };

export function pendingMessage(input: PendingMessageInput): MessageDoc {
  return {
    id: null,
    status: 'pending',
    content: '',
    replyTo: null,
    attachments: [],
    mentions: [],
    poll: null,
    forwardedFrom: null,
    agentAnswer: null,
    ...input,
    editedAt: null,
    deletedAt: null,
    seq: 0,
    createdSeq: 0,
    reactions: [],
    isPinned: false,
    isStarred: false,
    base: null,
  };
}
