// The channel side panels: pinned messages (shared) and the caller's own starred messages, newest first.
import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { MessageListResponse } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { messageStars, messages } from '../db/schema.ts';
import { toWireMessage } from './wire.ts';

const metadata = (page: number, limit: number, total: number) => ({
  page,
  limit,
  total,
  hasMore: page * limit < total,
});

/** Callers have checked channel membership. */
export async function pinnedMessages(
  db: Db,
  channelId: string,
  page: number,
  limit: number,
): Promise<MessageListResponse> {
  const where = and(
    eq(messages.channelId, channelId),
    isNotNull(messages.pinnedAt),
    isNull(messages.deletedAt),
  );
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(where)
      .orderBy(desc(messages.pinnedAt))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(messages).where(where),
  ]);
  return {
    data: rows.map((row) => ({ message: toWireMessage(row) })),
    metadata: metadata(page, limit, totals[0]?.total ?? 0),
  };
}

export async function starredMessages(
  db: Db,
  channelId: string,
  memberId: string,
  page: number,
  limit: number,
): Promise<MessageListResponse> {
  const where = and(
    eq(messageStars.channelId, channelId),
    eq(messageStars.memberId, memberId),
    isNull(messages.deletedAt),
  );
  const [rows, totals] = await Promise.all([
    db
      .select({ message: messages })
      .from(messageStars)
      .innerJoin(messages, eq(messages.id, messageStars.messageId))
      .where(where)
      .orderBy(desc(messageStars.createdAt))
      .limit(limit)
      .offset((page - 1) * limit),
    db
      .select({ total: count() })
      .from(messageStars)
      .innerJoin(messages, eq(messages.id, messageStars.messageId))
      .where(where),
  ]);
  return {
    data: rows.map((r) => ({ message: toWireMessage(r.message) })),
    metadata: metadata(page, limit, totals[0]?.total ?? 0),
  };
}
