// Looking up one message of a channel: for a change to it, or for a reader (a reply's quoted original).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import type { MessageRow } from './wire.ts';

/** The live (not deleted) message of this channel; 404 for one of another channel, 400 for a tombstone. */
export async function requireLiveMessage(db: Db, channelId: string, messageId: string): Promise<MessageRow> {
  const row = await requireMessage(db, channelId, messageId);
  if (row.deletedAt) throw badRequest('This message was deleted');
  return row;
}

/** The message of this channel, tombstone or not (a reader is told it was deleted); 404 for any other. */
export async function requireMessage(db: Db, channelId: string, messageId: string): Promise<MessageRow> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.channelId, channelId)))
    .limit(1);
  if (!row) throw notFound('Message not found');
  return row;
}
