// Polls: a poll is a message (empty content, a `poll` field) created with canPost; members vote (their whole
// vote replaces an earlier one; single-choice takes one option), remove their vote, and the author or a
// manager closes it. Every vote is a change to the message (next seq, newEditMessage): results are live.
import type { z } from 'zod';
import type {
  closePollPayload,
  createPollPayload,
  Message,
  removeVoteOnPollPayload,
  voteOnPollPayload,
} from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { StoredPoll } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { schedulePushes } from '../push/notify.ts';
import type { MessagesContext } from './context.ts';
import { createMessageRow, findByGenId } from './create.ts';
import { requireLiveMessage, requireMessage } from './find.ts';
import { applyMessageChange, assertSameOp, findOp, type MessageChange, recordOp } from './ops.ts';
import { requireClosePollPermission, requirePostPermission } from './permissions.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type CreatePollInput = z.infer<typeof createPollPayload>;
export type VoteInput = z.infer<typeof voteOnPollPayload>;
export type RemoveVoteInput = z.infer<typeof removeVoteOnPollPayload>;
export type ClosePollInput = z.infer<typeof closePollPayload>;

export async function createPoll(
  ctx: MessagesContext,
  userId: string,
  input: CreatePollInput,
): Promise<Message> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const me = access.member.id;
  const args = { channelId: input.channelId, genId: input.genId };
  const prior = await findOp(db, input.opId);
  if (prior) {
    // Only the poll this op created answers its replay, never whatever message carries the genId given now.
    assertSameOp(prior, { memberId: me, kind: 'createPoll' }, args);
    return toWireMessage(await requireMessage(db, input.channelId, prior.messageId));
  }
  // A stored genId answers the repeat before permissions, as postMessage does.
  if (!(await findByGenId(db, input.genId))) await requirePostPermission(db, access, {});
  const poll: StoredPoll = {
    question: input.question,
    options: input.options.map((text) => ({ text, memberIds: [] })),
    multiple: input.multiple,
    closedAt: null,
  };
  const { row, created } = await createMessageRow(
    db,
    {
      genId: input.genId,
      channelId: input.channelId,
      institutionId: input.institutionId,
      memberId: me,
      content: '',
      poll,
    },
    (tx, inserted) =>
      recordOp(
        tx,
        {
          opId: input.opId,
          memberId: me,
          kind: 'createPoll',
          channelId: input.channelId,
          messageId: inserted.id,
        },
        {},
        args,
      ),
  );
  const message = toWireMessage(row);
  if (created) {
    ctx.broadcast.toChannel(input.channelId, 'newMessage', message);
    schedulePushes(ctx, message);
  }
  return message;
}

function openPoll(row: MessageRow): StoredPoll {
  if (!row.poll) throw badRequest('This message is not a poll');
  if (row.poll.closedAt) throw badRequest('This poll is closed');
  return row.poll;
}

/** The poll with the member's vote set to exactly these options; null when that is already their vote. */
function withVote(poll: StoredPoll, memberId: string, indexes: readonly number[]): MessageChange | null {
  const chosen = new Set(indexes);
  const unchanged = poll.options.every((o, i) => o.memberIds.includes(memberId) === chosen.has(i));
  if (unchanged) return null;
  const options = poll.options.map((o, i) => {
    const others = o.memberIds.filter((m) => m !== memberId);
    return { text: o.text, memberIds: chosen.has(i) ? [...others, memberId] : others };
  });
  return { patch: { poll: { ...poll, options } } };
}

async function changePoll(
  ctx: MessagesContext,
  userId: string,
  input: ClosePollInput,
  kind: string,
  decide: (row: MessageRow, me: string) => MessageChange | null,
  authorize?: (access: Awaited<ReturnType<typeof requireChannelMember>>) => Promise<void>,
): Promise<Message> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const me = access.member.id;
  const { row, changed } = await applyMessageChange(
    db,
    { opId: input.opId, memberId: me, kind, channelId: input.channelId, messageId: input.messageId },
    {
      ...(authorize ? { authorize: () => authorize(access) } : {}),
      decide: (current) => decide(current, me),
    },
  );
  const message = toWireMessage(row);
  if (changed) ctx.broadcast.toChannel(input.channelId, 'newEditMessage', message);
  return message;
}

export function voteOnPoll(ctx: MessagesContext, userId: string, input: VoteInput): Promise<Message> {
  return changePoll(ctx, userId, input, 'vote', (row, me) => {
    const poll = openPoll(row);
    const indexes = [...new Set(input.optionIndexes)];
    if (indexes.some((i) => i >= poll.options.length)) throw badRequest('No such option in this poll');
    if (!poll.multiple && indexes.length > 1) throw badRequest('This poll allows only one choice');
    return withVote(poll, me, indexes);
  });
}

export function removeVoteOnPoll(
  ctx: MessagesContext,
  userId: string,
  input: RemoveVoteInput,
): Promise<Message> {
  return changePoll(ctx, userId, input, 'removeVote', (row, me) => withVote(openPoll(row), me, []));
}

export function closePoll(ctx: MessagesContext, userId: string, input: ClosePollInput): Promise<Message> {
  return changePoll(
    ctx,
    userId,
    input,
    'closePoll',
    (row) => {
      if (!row.poll) throw badRequest('This message is not a poll');
      if (row.poll.closedAt) return null;
      return { patch: { poll: { ...row.poll, closedAt: new Date().toISOString() } } };
    },
    async (access) =>
      requireClosePollPermission(
        ctx.db,
        access,
        await requireLiveMessage(ctx.db, input.channelId, input.messageId),
      ),
  );
}
