// Stars are private: a star changes no shared message state (no seq, no channel broadcast); the starrer's
// ack carries isStarred and their other sessions hear messageStarred. Stated (`starred`) or flipped, once
// per opId. Reads of history tell each reader their own stars (decision 0082).
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type Message,
  STARRED_SYNC_MAX,
  type StarredMessage,
  type toggleStarredMessagePayload,
} from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { messageOps, messageStars, messages } from '../db/schema.ts';
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

/** The reader's own star on each message read: one indexed statement for the whole page. */
export async function withReaderStars(db: Db, memberId: string, page: Message[]): Promise<StarredMessage[]> {
  if (!page.length) return [];
  const rows = await db
    .select({ messageId: messageStars.messageId })
    .from(messageStars)
    .where(
      and(
        eq(messageStars.memberId, memberId),
        inArray(
          messageStars.messageId,
          page.map((m) => m.id),
        ),
      ),
    );
  const starred = new Set(rows.map((r) => r.messageId));
  return page.map((m) => ({ ...m, isStarred: starred.has(m.id) }));
}

/** The genIds of the member's stars in these channels, newest first, and whether that is all of them. */
export async function starredInChannels(
  db: Db,
  memberId: string,
  channelIds: readonly string[],
): Promise<{ starred: string[]; starredComplete: boolean }> {
  if (!channelIds.length) return { starred: [], starredComplete: true };
  const rows = await db
    .select({ genId: messages.genId })
    .from(messageStars)
    .innerJoin(messages, eq(messages.id, messageStars.messageId))
    .where(and(eq(messageStars.memberId, memberId), inArray(messageStars.channelId, [...channelIds])))
    .orderBy(desc(messageStars.createdAt))
    .limit(STARRED_SYNC_MAX + 1);
  return {
    starred: rows.slice(0, STARRED_SYNC_MAX).map((r) => r.genId),
    starredComplete: rows.length <= STARRED_SYNC_MAX,
  };
}

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
  let applied = false;
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
    applied = true;
  } catch (err) {
    // The same op raced in twice: the first one applied it.
    if (!isUniqueViolation(err)) throw err;
    const twin = await findOp(db, input.opId);
    if (twin) assertSameOp(twin, op, messageOpArgs(input));
  }
  const result = answer(row, await isStarred(db, me, row.id));
  // Every device of the starrer's shows it (the acting one too: applying it twice changes nothing).
  if (applied && want !== had) ctx.broadcast.toUser(userId, 'messageStarred', result);
  return result;
}
