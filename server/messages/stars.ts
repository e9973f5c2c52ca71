// Stars are private: a star changes no shared message state (no seq, no broadcast); the starrer's ack
// carries isStarred. Stated (`starred`) or flipped, once per opId.
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { StarredMessage, toggleStarredMessagePayload } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { messageOps, messageStars } from '../db/schema.ts';
import type { MessagesContext } from './context.ts';
import { requireLiveMessage } from './find.ts';
import { assertSameOp, findOp, messageOpArgs } from './ops.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { type MessageRow, toWireMessage } from './wire.ts';

export type ToggleStarInput = z.infer<typeof toggleStarredMessagePayload>;

async function isStarred(db: Db, memberId: string, messageId: string): Promise<boolean> {
  const rows = await db
    .select({ messageId: messageStars.messageId })
    .from(messageStars)
    .where(and(eq(messageStars.memberId, memberId), eq(messageStars.messageId, messageId)))
    .limit(1);
  return rows.length > 0;
}

const answer = (row: MessageRow, starred: boolean): StarredMessage => ({
  ...toWireMessage(row),
  isStarred: starred,
});

export async function toggleStarredMessage(
  ctx: MessagesContext,
  userId: string,
  input: ToggleStarInput,
): Promise<StarredMessage> {
  const { db } = ctx;
  const access = await requireChannelMember(db, input.institutionId, input.channelId, userId);
  const me = access.member.id;
  const op = { memberId: me, kind: 'star' };
  const prior = await findOp(db, input.opId);
  const row = await requireLiveMessage(db, input.channelId, input.messageId);
  if (prior) {
    assertSameOp(prior, op, messageOpArgs(input));
    return answer(row, await isStarred(db, me, row.id));
  }
  const had = await isStarred(db, me, row.id);
  const want = input.starred ?? !had;
  try {
    await db.transaction(async (tx) => {
      await tx.insert(messageOps).values({
        opId: input.opId,
        memberId: me,
        kind: 'star',
        messageId: row.id,
        result: { starred: want },
        args: messageOpArgs(input),
      });
      if (want)
        await tx
          .insert(messageStars)
          .values({ memberId: me, messageId: row.id, channelId: row.channelId })
          .onConflictDoNothing();
      else
        await tx
          .delete(messageStars)
          .where(and(eq(messageStars.memberId, me), eq(messageStars.messageId, row.id)));
    });
  } catch (err) {
    // The same op raced in twice: the first one applied it.
    if (!isUniqueViolation(err)) throw err;
    const twin = await findOp(db, input.opId);
    if (twin) assertSameOp(twin, op, messageOpArgs(input));
  }
  return answer(row, await isStarred(db, me, row.id));
}
