// Unread counts kept by the server: raised for every channel member but the author when a message is
// created, reset when the member reads the channel.
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { channelMembers, channels } from '../db/schema.ts';

/** Inside the create transaction, so the count and the message commit together. */
export async function raiseUnreadCounts(tx: Db, channelId: string, authorMemberId: string): Promise<void> {
  await tx
    .update(channelMembers)
    .set({ unreadCount: sql`${channelMembers.unreadCount} + 1` })
    .where(and(eq(channelMembers.channelId, channelId), ne(channelMembers.memberId, authorMemberId)));
}

/** The member has read the channel: count to zero, last read message = the channel's last message. */
export async function resetUnreadCount(db: Db, channelId: string, memberId: string): Promise<void> {
  const [channel] = await db
    .select({ lastMessageId: channels.lastMessageId })
    .from(channels)
    .where(eq(channels.id, channelId))
    .limit(1);
  await db
    .update(channelMembers)
    .set({ unreadCount: 0, lastReadMessageId: channel?.lastMessageId ?? null })
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.memberId, memberId)));
}
