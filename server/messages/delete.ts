// Deleting a message leaves a tombstone (content, attachments and mentions emptied, deletedAt set) with
// the channel's next seq, so clients catching up learn of the delete.
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { deleteMessagePayload, Message } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import { messages } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import type { MessagesContext } from './context.ts';
import { requireLiveMessage } from './find.ts';
import { requireDeletePermission } from './permissions.ts';
import { nextChannelSeq } from './sequence.ts';
import { toWireMessage } from './wire.ts';

export type DeleteMessageInput = z.infer<typeof deleteMessagePayload>;

export async function deleteMessage(
  ctx: MessagesContext,
  userId: string,
  input: DeleteMessageInput,
): Promise<Message> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const current = await requireLiveMessage(db, input.channelId, input.messageId);
  await requireDeletePermission(db, access, current);

  const row = await db.transaction(async (tx) => {
    const seq = await nextChannelSeq(tx, input.channelId);
    const [tombstone] = await tx
      .update(messages)
      .set({ content: '', attachments: [], mentions: [], deletedAt: new Date(), seq })
      .where(and(eq(messages.id, current.id), isNull(messages.deletedAt)))
      .returning();
    if (!tombstone) throw badRequest('This message was deleted');
    return tombstone;
  });

  const message = toWireMessage(row);
  ctx.broadcast.toChannel(input.channelId, 'newDeleteMessage', message);
  return message;
}
