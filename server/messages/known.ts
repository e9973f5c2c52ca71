// Which of a client's genIds the server already holds: lets a reconnecting client settle messages it sent
// but never saw acknowledged, without sending them again.
import { and, eq, inArray } from 'drizzle-orm';
import type { Message } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { toWireMessage } from './wire.ts';

/** Only the caller's own messages in this workspace: a genId reveals nothing about anyone else. */
export async function knownMessages(
  db: Db,
  institutionId: string,
  memberId: string,
  genIds: string[],
): Promise<Message[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.institutionId, institutionId),
        eq(messages.memberId, memberId),
        inArray(messages.genId, genIds),
      ),
    );
  return rows.map(toWireMessage);
}
