// Idempotent message actions: every client op carries an opId, applied once. A repeat (the outbox resending
// after a lost acknowledgement) is answered with the current message, changing and broadcasting nothing.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { messageOps, messages } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import { metricsOf } from '../operations/metrics.ts';
import { requireMessage } from './find.ts';
import { nextChannelSeq } from './sequence.ts';
import { isUniqueViolation } from './unique-violation.ts';
import type { MessageRow } from './wire.ts';

export type OpRow = typeof messageOps.$inferSelect;
type MessagePatch = Partial<Omit<typeof messages.$inferInsert, 'id' | 'seq' | 'plainText'>>;

export interface MessageOp {
  opId: string;
  memberId: string;
  kind: string;
  channelId: string;
  messageId: string;
}

/** The arguments that say what an op did; a replay of its opId must repeat them exactly. */
export type OpArgs = Record<string, string | readonly string[]>;

/** An op on one message is identified by where and on what; ops that create messages give their own args. */
export const messageOpArgs = (op: Pick<MessageOp, 'channelId' | 'messageId'>): OpArgs => ({
  channelId: op.channelId,
  messageId: op.messageId,
});

export async function findOp(db: Db, opId: string): Promise<OpRow | undefined> {
  const [row] = await db.select().from(messageOps).where(eq(messageOps.opId, opId)).limit(1);
  return row;
}

/** Key order does not matter; array order does (genIds[i] belongs to channelIds[i]). */
function canonical(args: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(args)
      .sort()
      .map((k) => [k, args[k]]),
  );
}

/**
 * An opId names one action of one person with one set of arguments: reusing it for another person, kind or
 * argument (another channel, message, genId or target) is refused, so a replay can only ever answer with
 * what that op itself produced for that caller.
 */
export function assertSameOp(row: OpRow, op: Pick<MessageOp, 'memberId' | 'kind'>, args: OpArgs): void {
  if (row.memberId !== op.memberId || row.kind !== op.kind)
    throw badRequest('This operation id is already used');
  if (canonical(row.args) !== canonical(args))
    throw badRequest('This operation id was already used with different arguments');
}

export async function recordOp(
  db: Db,
  op: MessageOp,
  result: Record<string, unknown> = {},
  args: OpArgs = messageOpArgs(op),
): Promise<void> {
  await db
    .insert(messageOps)
    .values({ opId: op.opId, memberId: op.memberId, kind: op.kind, messageId: op.messageId, result, args })
    .onConflictDoNothing();
}

export interface MessageChange {
  patch: MessagePatch;
  /** Runs in the same transaction after the update (activities). */
  after?: (tx: Db, row: MessageRow) => Promise<void>;
}

export interface ChangeSpec {
  /** Permission checks; skipped for a repeat, which is answered even if the person lost the right since. */
  authorize?: () => Promise<void>;
  /** The change to make given the message as it is under the channel lock; null when nothing changes. */
  decide: (row: MessageRow) => MessageChange | null | Promise<MessageChange | null>;
}

/** Thrown inside the transaction to roll back its seq bump when the op changes nothing. */
class Unchanged extends Error {
  constructor(
    readonly row: MessageRow,
    readonly record: boolean,
  ) {
    super('unchanged');
  }
}

/**
 * Applies one op to a live message under the channel's sequence lock: the change takes the channel's next
 * seq (so catch-up carries it) and the op is recorded in the same transaction. `changed` is false for a
 * repeat or a change to the state the message already had; the caller broadcasts only when true.
 */
export async function applyMessageChange(
  db: Db,
  op: MessageOp,
  spec: ChangeSpec,
): Promise<{ row: MessageRow; changed: boolean }> {
  const prior = await findOp(db, op.opId);
  if (prior) {
    assertSameOp(prior, op, messageOpArgs(op));
    metricsOf(db)?.outboxResends.inc({ kind: 'op' });
    return { row: await requireMessage(db, op.channelId, op.messageId), changed: false };
  }
  await spec.authorize?.();
  try {
    const row = await db.transaction(async (tx) => {
      const seq = await nextChannelSeq(tx, op.channelId);
      // A twin of this op may have committed while we waited for the lock.
      const twin = await findOp(tx, op.opId);
      const current = await requireMessage(tx, op.channelId, op.messageId);
      if (twin) {
        assertSameOp(twin, op, messageOpArgs(op));
        throw new Unchanged(current, false);
      }
      if (current.deletedAt) throw badRequest('This message was deleted');
      const change = await spec.decide(current);
      if (!change) throw new Unchanged(current, true);
      const [updated] = await tx
        .update(messages)
        .set({ ...change.patch, seq })
        .where(eq(messages.id, current.id))
        .returning();
      if (!updated) throw notFound('Message not found');
      await recordOp(tx, op);
      await change.after?.(tx, updated);
      return updated;
    });
    return { row, changed: true };
  } catch (err) {
    if (err instanceof Unchanged) {
      // Remember a no-op too, so a later replay of it cannot undo what happened in between.
      if (err.record) await recordOp(db, op);
      return { row: err.row, changed: false };
    }
    if (!isUniqueViolation(err)) throw err;
    return { row: await requireMessage(db, op.channelId, op.messageId), changed: false };
  }
}
