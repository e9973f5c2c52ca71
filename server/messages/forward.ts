// Forwarding: a member of the source channel copies a message (content and attachments) into one or more
// channels where they may post. Each copy is idempotent on its genId and the whole op on its opId; the ack
// is the list of new messages, in the order of channelIds.
import type { z } from 'zod';
import type { forwardMessagePayload, Message } from '../../schemas/protocol.ts';
import { requireChannelMember } from '../access.ts';
import { badRequest } from '../errors.ts';
import type { MessagesContext } from './context.ts';
import { createMessageRow, findByGenId } from './create.ts';
import { requireLiveMessage } from './find.ts';
import { assertSameOp, findOp, recordOp } from './ops.ts';
import { requirePostPermission } from './permissions.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type ForwardInput = z.infer<typeof forwardMessagePayload>;

export async function forwardMessage(
  ctx: MessagesContext,
  userId: string,
  input: ForwardInput,
): Promise<Message[]> {
  const { db } = ctx;
  const source = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const me = source.member.id;
  const op = {
    opId: input.opId,
    memberId: me,
    kind: 'forward',
    channelId: input.channelId,
    messageId: input.messageId,
  };
  const prior = await findOp(db, input.opId);
  if (prior) {
    assertSameOp(prior, op);
    const stored = await Promise.all(input.genIds.map((g) => findByGenId(db, g)));
    return stored.filter((r): r is MessageRow => r !== undefined).map(toWireMessage);
  }
  const original = await requireLiveMessage(db, input.channelId, input.messageId);
  if (original.poll) throw badRequest('A poll cannot be forwarded');
  // Every target is checked before anything is written: a refused target refuses the whole forward.
  for (const [i, channelId] of input.channelIds.entries()) {
    const target = await requireChannelMember(db, input.institutionId, channelId, userId);
    const genId = input.genIds[i];
    if (genId && !(await findByGenId(db, genId))) await requirePostPermission(db, target, {});
  }
  const results: Message[] = [];
  for (const [i, channelId] of input.channelIds.entries()) {
    const genId = input.genIds[i];
    if (!genId) continue;
    const { row, created } = await createMessageRow(db, {
      genId,
      channelId,
      institutionId: input.institutionId,
      memberId: me,
      content: original.content,
      attachments: original.attachments,
      forwardedFrom: { messageId: original.id, channelId: original.channelId },
    });
    const message = toWireMessage(row);
    if (created) ctx.broadcast.toChannel(channelId, 'newMessage', message);
    results.push(message);
  }
  await recordOp(db, op, { messageIds: results.map((m) => m.id) });
  return results;
}
