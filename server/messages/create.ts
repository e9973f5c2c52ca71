// Writing a new message row from an action (a poll, a forward): the channel's next seq, last message and
// message count, and the author's own count (unread.ts), all in one transaction, idempotent on the genId
// like postMessage.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import { nextChannelSeq } from './sequence.ts';
import { isUniqueViolation } from './unique-violation.ts';
import { countOwnMessages } from './unread.ts';
import type { MessageRow } from './wire.ts';

type NewMessage = Omit<
  typeof messages.$inferInsert,
  'id' | 'seq' | 'createdSeq' | 'createdAt' | 'plainText' | 'editedAt' | 'deletedAt'
>;

export async function findByGenId(db: Db, genId: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.genId, genId)).limit(1);
  return row;
}

function sameSender(row: MessageRow, values: NewMessage): MessageRow {
  if (row.memberId !== values.memberId || row.channelId !== values.channelId)
    throw badRequest('This message id is already used');
  return row;
}

/** The stored row and whether it was written now (false: this genId was already stored). */
export async function createMessageRow(
  db: Db,
  values: NewMessage,
  after?: (tx: Db, row: MessageRow) => Promise<void>,
): Promise<{ row: MessageRow; created: boolean }> {
  const existing = await findByGenId(db, values.genId);
  if (existing) return { row: sameSender(existing, values), created: false };
  try {
    const id = randomUUID();
    const createdAt = new Date();
    const row = await db.transaction(async (tx) => {
      const seq = await nextChannelSeq(tx, values.channelId, { id, at: createdAt });
      const [inserted] = await tx
        .insert(messages)
        .values({ ...values, id, createdAt, seq, createdSeq: seq })
        .returning();
      if (!inserted) throw new Error('insert returned no row');
      await countOwnMessages(tx, [{ channelId: values.channelId, memberId: values.memberId, count: 1 }]);
      await after?.(tx, inserted);
      return inserted;
    });
    return { row, created: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await findByGenId(db, values.genId);
    if (!winner) throw err;
    return { row: sameSender(winner, values), created: false };
  }
}
