// Posting a message, idempotent on the client's genId: a repeat returns the stored message, stores no
// second row, consumes no sequence number and broadcasts nothing.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Message, postMessagePayload } from '../../schemas/protocol.ts';
import { requireChannelMember } from '../access.ts';
import { startAgentRuns } from '../agents/runs.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { postedAttachments, recordAttachments } from '../files/attachments.ts';
import { recordMessageActivities } from '../services/activities.ts';
import { messageContent } from './content.ts';
import type { MessagesContext } from './context.ts';
import { requirePostPermission } from './permissions.ts';
import { nextChannelSeq } from './sequence.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { raiseUnreadCounts } from './unread.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type PostMessageInput = z.infer<typeof postMessagePayload>;

async function findByGenId(db: Db, genId: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.genId, genId)).limit(1);
  return row;
}

/** A stored message with this genId answers the repeat only if it is the same sender's, in the same channel. */
function repeatOf(row: MessageRow, memberId: string, channelId: string): Message {
  if (row.memberId !== memberId || row.channelId !== channelId)
    throw badRequest('This message id is already used');
  return toWireMessage(row);
}

/**
 * A reply keeps its target only when the target is a message of the same channel. An unknown target is
 * dropped rather than refused: refusing would leave an offline-written message undeliverable forever.
 */
async function replyTarget(
  db: Db,
  channelId: string,
  replyTo: string | null | undefined,
): Promise<string | null> {
  if (!replyTo) return null;
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.id, replyTo), eq(messages.channelId, channelId)))
    .limit(1);
  return row ? row.id : null;
}

export interface PostResult {
  message: Message;
  /** False when the genId was already stored (nothing new was written or broadcast). */
  created: boolean;
}

export async function postMessage(
  ctx: MessagesContext,
  userId: string,
  input: PostMessageInput,
): Promise<PostResult> {
  const { db } = ctx;
  // The genId lookup runs beside the access check; its answer is used only once access is granted.
  const [access, existing] = await Promise.all([
    requireChannelMember(db, input.institutionId, input.channelId, userId),
    findByGenId(db, input.genId),
  ]);
  const memberId = access.member.id;
  // A repeat answers with what was stored even if the sender has lost permission to post since.
  if (existing) return { message: repeatOf(existing, memberId, input.channelId), created: false };
  await requirePostPermission(db, access, input);

  // Only the sender's own files of this channel, described by their records, never by the client.
  const attachments = await postedAttachments(
    db,
    { institutionId: input.institutionId, channelId: input.channelId, memberId },
    input.attachments ?? [],
  );
  const content = messageContent(input.content, attachments);
  const replyTo = await replyTarget(db, input.channelId, input.replyTo);

  let row: MessageRow;
  try {
    const id = randomUUID();
    const createdAt = new Date();
    row = await db.transaction(async (tx) => {
      const seq = await nextChannelSeq(tx, input.channelId, { id, at: createdAt });
      const [inserted] = await tx
        .insert(messages)
        .values({
          id,
          createdAt,
          genId: input.genId,
          channelId: input.channelId,
          institutionId: input.institutionId,
          memberId,
          content,
          replyTo,
          attachments,
          mentions: input.mentions ?? [],
          seq,
          createdSeq: seq,
        })
        .returning();
      if (!inserted) throw new Error('insert returned no row');
      await raiseUnreadCounts(tx, input.channelId, memberId);
      await recordAttachments(tx, inserted);
      await recordMessageActivities(tx, inserted);
      return inserted;
    });
  } catch (err) {
    // Two identical posts raced past the check above; the loser's transaction (and its seq) rolled back.
    if (!isUniqueViolation(err)) throw err;
    const winner = await findByGenId(db, input.genId);
    if (!winner) throw err;
    return { message: repeatOf(winner, memberId, input.channelId), created: false };
  }

  const message = toWireMessage(row);
  ctx.broadcast.toChannel(input.channelId, 'newMessage', message);
  startAgentRuns(ctx, message, access.member, access.channel);
  return { message, created: true };
}
