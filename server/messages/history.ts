// Reading a channel's messages: pages of the live history, newest first, and the change feed for
// catch-up (every message changed after a seq, tombstones included, in seq order).
import { and, asc, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { ChangesResponse, MessagePage } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { toWireMessage } from './wire.ts';

/** Callers have checked channel membership. */
export async function messagePage(
  db: Db,
  channelId: string,
  page: number,
  limit: number,
): Promise<MessagePage> {
  const live = and(eq(messages.channelId, channelId), isNull(messages.deletedAt));
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(live)
      .orderBy(desc(messages.createdSeq))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(messages).where(live),
  ]);
  const total = totals[0]?.total ?? 0;
  return {
    data: rows.map(toWireMessage),
    metadata: { page, limit, total, hasMore: page * limit < total },
  };
}

export async function messageChanges(
  db: Db,
  channelId: string,
  after: number,
  limit: number,
): Promise<ChangesResponse> {
  // One row more than asked tells whether another page follows.
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, channelId), gt(messages.seq, after)))
    .orderBy(asc(messages.seq))
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  const data = rows.slice(0, limit).map(toWireMessage);
  return { data, metadata: { lastSeq: data.at(-1)?.seq ?? after, hasMore } };
}
