// Forwarding: a member of the source channel copies a message (content and attachments) into one or more
// channels where they may post. Each copy is idempotent on its genId and the whole op on its opId; the ack
// is the list of new messages, in the order of channelIds.
import { inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { forwardMessagePayload, Message } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { forwardedAttachments, recordAttachments } from '../files/attachments.ts';
import { schedulePushes } from '../push/notify.ts';
import type { MessagesContext } from './context.ts';
import { createMessageRow, findByGenId } from './create.ts';
import { requireLiveMessage } from './find.ts';
import { assertSameOp, findOp, type OpRow, recordOp } from './ops.ts';
import { requirePostPermission } from './permissions.ts';
import { toWireMessage } from './wire.ts';

export type ForwardInput = z.infer<typeof forwardMessagePayload>;

/** The copies this op wrote, in its order: a replay answers with them and nothing else. */
async function recordedCopies(db: Db, prior: OpRow): Promise<Message[]> {
  const ids = prior.result.messageIds;
  if (!Array.isArray(ids) || ids.length === 0) return [];
  const wanted = ids.filter((i): i is string => typeof i === 'string');
  const rows = await db.select().from(messages).where(inArray(messages.id, wanted));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return wanted.flatMap((i) => {
    const row = byId.get(i);
    return row ? [toWireMessage(row)] : [];
  });
}

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
  const args = {
    channelId: input.channelId,
    messageId: input.messageId,
    channelIds: input.channelIds,
    genIds: input.genIds,
  };
  const prior = await findOp(db, input.opId);
  if (prior) {
    assertSameOp(prior, op, args);
    return recordedCopies(db, prior);
  }
  const original = await requireLiveMessage(db, input.channelId, input.messageId);
  if (original.poll) throw badRequest('A poll cannot be forwarded');
  // Files go on only if the forwarder may read them by their own records, described by those records.
  const attachments = await forwardedAttachments(
    db,
    { institutionId: input.institutionId, memberId: me },
    original.attachments,
  );
  // Every target is checked before anything is written: a refused target refuses the whole forward, and a
  // genId already stored must be this person's copy in that channel (a resend), never someone else's message.
  for (const [i, channelId] of input.channelIds.entries()) {
    const target = await requireChannelMember(db, input.institutionId, channelId, userId);
    const genId = input.genIds[i];
    if (!genId) continue;
    const stored = await findByGenId(db, genId);
    if (!stored) await requirePostPermission(db, target, {});
    else if (stored.memberId !== me || stored.channelId !== channelId)
      throw badRequest('This message id is already used');
  }
  const results: Message[] = [];
  for (const [i, channelId] of input.channelIds.entries()) {
    const genId = input.genIds[i];
    if (!genId) continue;
    const { row, created } = await createMessageRow(
      db,
      {
        genId,
        channelId,
        institutionId: input.institutionId,
        memberId: me,
        content: original.content,
        attachments,
        forwardedFrom: { messageId: original.id, channelId: original.channelId },
      },
      recordAttachments,
    );
    const message = toWireMessage(row);
    if (created) {
      ctx.broadcast.toChannel(channelId, 'newMessage', message);
      schedulePushes(ctx, message);
    }
    results.push(message);
  }
  await recordOp(db, op, { messageIds: results.map((m) => m.id) }, args);
  return results;
}
