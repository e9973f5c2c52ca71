// Posting a message, idempotent on the client's genId: a repeat returns the stored message, stores no
// second row, consumes no sequence number and broadcasts nothing.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Message, PostMessagePayload } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import { startAgentRuns } from '../agents/runs.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { postedAttachments, recordAttachments } from '../files/attachments.ts';
import { metricsOf } from '../operations/metrics.ts';
import { schedulePushes } from '../push/notify.ts';
import { recordMessageActivities } from '../services/activities.ts';
import { messageContent } from './content.ts';
import type { MessagesContext } from './context.ts';
import { groupCommitFor } from './group-commit.ts';
import { requirePostPermission } from './permissions.ts';
import { repeatOf } from './post-batch.ts';
import { nextChannelSeq } from './sequence.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { countOwnMessages } from './unread.ts';
import { type MessageRow, toWireMessage } from './wire.ts';
import { writtenAt } from './written-at.ts';

export type PostMessageInput = PostMessagePayload;

/** Batches committing at once on PostgreSQL: under half the pool, which the rest of the server shares. */
const POSTGRES_LANES = 4;

async function findByGenId(db: Db, genId: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.genId, genId)).limit(1);
  return row;
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

/**
 * Posts through the group commit (server/messages/group-commit.ts): the post shares a transaction with
 * whatever else arrived meanwhile, and resolves after that transaction committed.
 */
export async function postMessage(
  ctx: MessagesContext,
  userId: string,
  input: PostMessageInput,
): Promise<PostResult> {
  const result = await postThroughBatch(ctx, userId, input);
  const metrics = metricsOf(ctx.db);
  if (result.created) metrics?.messagesStored.inc();
  else metrics?.outboxResends.inc({ kind: 'post' });
  return result;
}

async function postThroughBatch(
  ctx: MessagesContext,
  userId: string,
  input: PostMessageInput,
): Promise<PostResult> {
  const outcome = await groupCommitFor(ctx.db, ctx.config.DATABASE_URL ? POSTGRES_LANES : 1).submit({
    userId,
    input,
  });
  switch (outcome.kind) {
    case 'created':
      ctx.broadcast.toChannel(input.channelId, 'newMessage', outcome.message);
      startAgentRuns(ctx, outcome.message, outcome.access.member, outcome.access.channel);
      schedulePushes(ctx, outcome.message);
      return { message: outcome.message, created: true };
    case 'repeat':
      return { message: outcome.message, created: false };
    case 'refused':
      throw outcome.error;
    case 'failed':
      // The batch's transaction failed as a whole (a genId raced in from another node, a dropped
      // connection): nothing of it was stored, so each of its posts is retried on its own, where only the
      // post at fault can fail.
      return postAlone(ctx, userId, input);
  }
}

/** One post in its own transaction: the path a post takes when its batch could not commit. */
export async function postAlone(
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
    // The channel's last activity is now; the message keeps the time it was written (written-at.ts).
    const now = new Date();
    const createdAt = writtenAt(input.genId, now);
    row = await db.transaction(async (tx) => {
      const seq = await nextChannelSeq(tx, input.channelId, { id, at: now });
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
      await countOwnMessages(tx, [{ channelId: input.channelId, memberId, count: 1 }]);
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
  schedulePushes(ctx, message);
  startAgentRuns(ctx, message, access.member, access.channel);
  return { message, created: true };
}
