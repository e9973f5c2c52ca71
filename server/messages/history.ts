// Reading a channel's messages: pages of the live history, newest first, and the change feed for
// catch-up (every message changed after a seq, tombstones included, in seq order).
import { and, asc, count, desc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import {
  CHANGES_FEED_ROWS_MAX,
  type ChangesResponse,
  type MessagePage,
  type WorkspaceChangesResponse,
} from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channels, members, messages } from '../db/schema.ts';
import { forbidden } from '../errors.ts';
import { starredInChannels, withReaderStars } from './stars.ts';
import { toWireMessage } from './wire.ts';

/**
 * A page of a channel's live history, newest first: counted from the newest (`page`), or the messages
 * older than the one at createdSeq `before` (a client's next older page), with the reader's own stars.
 * Callers have checked channel membership.
 */
export async function messagePage(
  db: Db,
  readerId: string,
  channelId: string,
  page: number,
  limit: number,
  before?: number,
): Promise<MessagePage> {
  const live = and(eq(messages.channelId, channelId), isNull(messages.deletedAt));
  const [rows, totals] = await Promise.all([
    before === undefined
      ? db
          .select()
          .from(messages)
          .where(live)
          .orderBy(desc(messages.createdSeq))
          .limit(limit)
          .offset((page - 1) * limit)
      : // One row more than asked tells whether another page follows.
        db
          .select()
          .from(messages)
          .where(and(live, lt(messages.createdSeq, before)))
          .orderBy(desc(messages.createdSeq))
          .limit(limit + 1),
    db.select({ total: count() }).from(messages).where(live),
  ]);
  const total = totals[0]?.total ?? 0;
  return {
    data: await withReaderStars(db, readerId, rows.slice(0, limit).map(toWireMessage)),
    metadata: {
      page,
      limit,
      total,
      hasMore: before === undefined ? page * limit < total : rows.length > limit,
    },
  };
}

export async function messageChanges(
  db: Db,
  readerId: string,
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
  const data = await withReaderStars(db, readerId, rows.slice(0, limit).map(toWireMessage));
  return { data, metadata: { lastSeq: data.at(-1)?.seq ?? after, hasMore } };
}

/**
 * The change feed of many channels in one answer (a reconnect's catch-up): one statement reads which
 * named channels the caller is in, by the server's own records, and one reads every such channel's next
 * page. Channels the caller is not in get nothing and are named in `notMember`. The caller's stars come
 * with it: on each message, and as the list of every star in the answered channels (decision 0082).
 */
export async function workspaceChanges(
  db: Db,
  institutionId: string,
  userId: string,
  asked: readonly { channelId: string; after: number }[],
  limit: number,
): Promise<WorkspaceChangesResponse> {
  const ids = asked.map((c) => c.channelId);
  const rows = await db
    .select({ memberId: members.id, channelId: channels.id })
    .from(members)
    .leftJoin(
      channelMembers,
      and(eq(channelMembers.memberId, members.id), inArray(channelMembers.channelId, ids)),
    )
    .leftJoin(
      channels,
      and(eq(channels.id, channelMembers.channelId), eq(channels.institutionId, institutionId)),
    )
    .where(and(eq(members.institutionId, institutionId), eq(members.userId, userId)));
  const readerId = rows[0]?.memberId;
  if (!readerId) throw forbidden('You are not a member of this workspace');
  const allowed = new Set(rows.flatMap((r) => (r.channelId ? [r.channelId] : [])));
  const readable = asked.filter((c) => allowed.has(c.channelId));
  const notMember = ids.filter((id) => !allowed.has(id));
  if (!readable.length) return { data: [], notMember, starred: [], starredComplete: true };

  // Each channel's share of the answer; one row more than its share tells whether more follows.
  const share = Math.max(1, Math.min(limit, Math.floor(CHANGES_FEED_ROWS_MAX / readable.length)));
  const page = (c: { channelId: string; after: number }) =>
    db
      .select()
      .from(messages)
      .where(and(eq(messages.channelId, c.channelId), gt(messages.seq, c.after)))
      .orderBy(asc(messages.seq))
      .limit(share + 1);
  const [first, second, ...rest] = readable.map(page);
  const [found, stars] = await Promise.all([
    second && first ? unionAll(first, second, ...rest) : (first ?? []),
    starredInChannels(
      db,
      readerId,
      readable.map((c) => c.channelId),
    ),
  ]);
  const starred = new Set(stars.starred);

  const byChannel = new Map<string, (typeof found)[number][]>();
  for (const row of found) {
    const list = byChannel.get(row.channelId);
    if (list) list.push(row);
    else byChannel.set(row.channelId, [row]);
  }
  const data = readable.map((c) => {
    // A union's branches arrive in any order: each channel's rows are put back in seq order.
    const list = (byChannel.get(c.channelId) ?? []).sort((a, b) => a.seq - b.seq);
    // Every star of these channels is listed when complete; else the page asks for its own.
    const sent = list
      .slice(0, share)
      .map((row) => ({ ...toWireMessage(row), isStarred: starred.has(row.genId) }));
    return {
      channelId: c.channelId,
      data: sent,
      metadata: { lastSeq: sent.at(-1)?.seq ?? c.after, hasMore: list.length > share },
    };
  });
  if (!stars.starredComplete) {
    // More stars than listed: every page's own, in one statement for the whole answer (same order back).
    const read = await withReaderStars(
      db,
      readerId,
      data.flatMap((page) => page.data),
    );
    let at = 0;
    for (const page of data) {
      const size = page.data.length;
      page.data = read.slice(at, at + size);
      at += size;
    }
  }
  return { data, notMember, ...stars };
}
