// Editing a message: only its author, never a tombstone; the change takes the channel's next seq.
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { editMessagePayload, Message } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import { messages } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { recordMessageActivities } from '../services/activities.ts';
import { messageContent } from './content.ts';
import type { MessagesContext } from './context.ts';
import { requireLiveMessage } from './find.ts';
import { requireEditPermission } from './permissions.ts';
import { nextChannelSeq } from './sequence.ts';
import { toWireMessage } from './wire.ts';

export type EditMessageInput = z.infer<typeof editMessagePayload>;

export async function editMessage(
  ctx: MessagesContext,
  userId: string,
  input: EditMessageInput,
): Promise<Message> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const current = await requireLiveMessage(db, input.channelId, input.messageId);
  await requireEditPermission(db, access, current, input.mentions);
  const content = messageContent(input.content, current.attachments);

  const row = await db.transaction(async (tx) => {
    const seq = await nextChannelSeq(tx, input.channelId);
    // deletedAt IS NULL again under the channel lock: a delete that committed meanwhile wins.
    const [updated] = await tx
      .update(messages)
      .set({ content, mentions: input.mentions ?? current.mentions, editedAt: new Date(), seq })
      .where(and(eq(messages.id, current.id), isNull(messages.deletedAt)))
      .returning();
    if (!updated) throw badRequest('This message was deleted');
    // Only mentions the edit added reach anyone's feed; the old ones already did.
    const before = new Set(current.mentions.map((m) => `${m.type}:${m.id}`));
    const added = updated.mentions.filter((m) => !before.has(`${m.type}:${m.id}`));
    if (added.length > 0) await recordMessageActivities(tx, updated, { mentions: added, reply: false });
    return updated;
  });

  const message = toWireMessage(row);
  ctx.broadcast.toChannel(input.channelId, 'newEditMessage', message);
  return message;
}
