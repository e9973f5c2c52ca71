// Reactions: a channel member adds or takes back an emoji on a message. The payload may state the wanted
// end state (reacted) so a replay cannot undo itself; the author hears of new reactions in their feed.
import type { z } from 'zod';
import type { Message, toggleReactionPayload } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { StoredReaction } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { recordReactionActivity, removeReactionActivity } from '../services/activities.ts';
import type { MessagesContext } from './context.ts';
import { applyMessageChange } from './ops.ts';
import { requireReactPermission } from './permissions.ts';
import { toWireMessage } from './wire.ts';

export type ToggleReactionInput = z.infer<typeof toggleReactionPayload>;

/** Distinct emoji one message may carry. */
const EMOJI_PER_MESSAGE_MAX = 50;

function withReaction(
  list: StoredReaction[],
  emoji: string,
  memberId: string,
  on: boolean,
): StoredReaction[] {
  if (on) {
    if (list.some((r) => r.emoji === emoji))
      return list.map((r) => (r.emoji === emoji ? { emoji, memberIds: [...r.memberIds, memberId] } : r));
    if (list.length >= EMOJI_PER_MESSAGE_MAX) throw badRequest('This message has too many reactions');
    return [...list, { emoji, memberIds: [memberId] }];
  }
  return list
    .map((r) => (r.emoji === emoji ? { emoji, memberIds: r.memberIds.filter((m) => m !== memberId) } : r))
    .filter((r) => r.memberIds.length > 0);
}

export async function toggleReaction(
  ctx: MessagesContext,
  userId: string,
  input: ToggleReactionInput,
): Promise<Message> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const me = access.member.id;
  const { emoji } = input;
  const { row, changed } = await applyMessageChange(
    db,
    {
      opId: input.opId,
      memberId: me,
      kind: 'reaction',
      channelId: input.channelId,
      messageId: input.messageId,
    },
    {
      authorize: () => requireReactPermission(db, access),
      decide: (current) => {
        const had = current.reactions.some((r) => r.emoji === emoji && r.memberIds.includes(me));
        const want = input.reacted ?? !had;
        if (want === had) return null;
        return {
          patch: { reactions: withReaction(current.reactions, emoji, me, want) },
          after: (tx, updated) =>
            want
              ? recordReactionActivity(tx, updated, me, emoji)
              : removeReactionActivity(tx, updated.id, me, emoji),
        };
      },
    },
  );
  const message = toWireMessage(row);
  if (changed) ctx.broadcast.toChannel(input.channelId, 'newEditMessage', message);
  return message;
}
