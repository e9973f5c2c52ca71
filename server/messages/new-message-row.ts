// A new post's row as it will be stored, built by the server rather than read back after the insert:
// plain_text is the database's own (generated, for search) and nothing that reads these rows looks at it.
import { randomUUID } from 'node:crypto';
import type { PostMessagePayload } from '../../schemas/protocol/index.ts';
import type { MessageRow } from './wire.ts';
import { writtenAt } from './written-at.ts';

/** The row a new post is stored as, before its sequence number is known (seq 0 until the channel is advanced). */
export function newMessageRow(
  input: PostMessagePayload,
  memberId: string,
  checked: { attachments: MessageRow['attachments']; content: string; replyTo: string | null },
  now: Date,
): MessageRow {
  return {
    id: randomUUID(),
    // The time it was written (written-at.ts); the channel's last activity is `now`.
    createdAt: writtenAt(input.genId, now),
    genId: input.genId,
    channelId: input.channelId,
    institutionId: input.institutionId,
    memberId,
    content: checked.content,
    replyTo: checked.replyTo,
    attachments: checked.attachments,
    mentions: input.mentions ?? [],
    seq: 0,
    createdSeq: 0,
    editedAt: null,
    deletedAt: null,
    plainText: '',
    reactions: [],
    pinnedAt: null,
    poll: null,
    forwardedFrom: null,
    agentAnswer: null,
  };
}
