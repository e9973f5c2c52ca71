// The channel's change sequence (decision 0002): the first statement of every message write transaction.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { channels } from '../db/schema.ts';
import { notFound } from '../errors.ts';

/**
 * Bumps the channel's last_seq and returns the new value. The UPDATE row-locks the channel until the
 * transaction ends, so no other change to this channel can commit in between: seq order is commit order.
 */
export async function nextChannelSeq(
  tx: Db,
  channelId: string,
  /**
   * A create also moves the channel's last message and counts it (unread counts are differences of that
   * count, server/messages/unread.ts), in the same statement to spare a round trip.
   */
  lastMessage?: { id: string; at: Date },
): Promise<number> {
  const [row] = await tx
    .update(channels)
    .set({
      lastSeq: sql`${channels.lastSeq} + 1`,
      ...(lastMessage
        ? {
            lastMessageId: lastMessage.id,
            lastMessageAt: lastMessage.at,
            messageCount: sql`${channels.messageCount} + 1`,
          }
        : {}),
    })
    .where(eq(channels.id, channelId))
    .returning({ lastSeq: channels.lastSeq });
  if (!row) throw notFound('Channel not found');
  return row.lastSeq;
}
