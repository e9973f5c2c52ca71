// Writing an agent's answer message as its run goes: content and agentAnswer together, through the same
// primitives as an edit (the channel's next seq under its row lock, newEditMessage to the channel). The
// asker's approve/reject decision is written here too, so that it is in the database whichever server
// node runs the agent, and a decision always wins over a run's older view of the card.
import { and, eq, isNull } from 'drizzle-orm';
import type { AgentAnswer, AgentToolCall, Message } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import type { MessagesContext } from '../messages/context.ts';
import { nextChannelSeq } from '../messages/sequence.ts';
import { toWireMessage } from '../messages/wire.ts';

type Ctx = Pick<MessagesContext, 'db' | 'broadcast'>;
type MessageRow = typeof messages.$inferSelect;

async function storedAnswer(tx: Db, channelId: string, messageId: string) {
  const [row] = await tx
    .select({ agentAnswer: messages.agentAnswer, deletedAt: messages.deletedAt })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.channelId, channelId)))
    .limit(1);
  return row;
}

/** Cards the asker has decided on since the run last looked keep the decision. */
function keepDecisions(next: AgentAnswer, stored: AgentAnswer | null | undefined): AgentAnswer {
  if (!stored) return next;
  const decided = new Map(
    stored.toolCalls.filter((c) => c.status !== 'awaiting_approval').map((c) => [c.id, c] as const),
  );
  const toolCalls = next.toolCalls.map((card) =>
    card.status === 'awaiting_approval' && decided.has(card.id)
      ? (decided.get(card.id) as AgentToolCall)
      : card,
  );
  return { ...next, toolCalls };
}

/** What became of a write: stored, or skipped because the answer was deleted or is already final. */
export type AnswerWrite = { stored: Message } | { skipped: 'deleted' | 'final' };

/**
 * Stores the answer's content and state as one change. Skipped when the message was deleted meanwhile
 * (the run then has nowhere to write and simply stops showing anything) or when the answer is already
 * final (closed by a stopping server: the run must not stream on over that closing line).
 */
export async function writeAnswer(
  ctx: Ctx,
  channelId: string,
  messageId: string,
  content: string,
  answer: AgentAnswer,
): Promise<AnswerWrite> {
  const written = await ctx.db.transaction(async (tx): Promise<MessageRow | 'deleted' | 'final'> => {
    const seq = await nextChannelSeq(tx, channelId);
    const stored = await storedAnswer(tx, channelId, messageId);
    if (!stored || stored.deletedAt) return 'deleted';
    const status = stored.agentAnswer?.status;
    if (status === 'done' || status === 'failed') return 'final';
    const [updated] = await tx
      .update(messages)
      .set({
        content,
        agentAnswer: keepDecisions(answer, stored.agentAnswer),
        editedAt: new Date(),
        seq,
      })
      .where(and(eq(messages.id, messageId), isNull(messages.deletedAt)))
      .returning();
    return updated ?? 'deleted';
  });
  if (typeof written === 'string') return { skipped: written };
  const message = toWireMessage(written);
  ctx.broadcast.toChannel(channelId, 'newEditMessage', message);
  return { stored: message };
}

export const REJECTED_RESULT = 'Rejected by the person who asked.';

/**
 * The asker's decision on a waiting tool call: approve → running, reject → rejected. 404 for an unknown
 * message or call, 409 when the call is not waiting (decided already, or timed out).
 */
export async function decideToolCall(
  ctx: Ctx,
  channelId: string,
  messageId: string,
  toolCallId: string,
  approve: boolean,
  result: string = REJECTED_RESULT,
): Promise<Message> {
  const row = await ctx.db.transaction(async (tx) => {
    const seq = await nextChannelSeq(tx, channelId);
    const stored = await storedAnswer(tx, channelId, messageId);
    const answer = stored?.agentAnswer;
    if (!stored || stored.deletedAt || !answer) throw notFound('Message not found');
    const card = answer.toolCalls.find((c) => c.id === toolCallId);
    if (!card) throw notFound('Tool call not found');
    if (card.status !== 'awaiting_approval')
      throw conflict('This tool call is not waiting for a decision any more');
    const toolCalls = answer.toolCalls.map((c) =>
      c.id === toolCallId
        ? {
            ...c,
            status: approve ? ('running' as const) : ('rejected' as const),
            result: approve ? null : result,
          }
        : c,
    );
    const stillWaiting = toolCalls.some((c) => c.status === 'awaiting_approval');
    const [updated] = await tx
      .update(messages)
      .set({
        agentAnswer: { ...answer, toolCalls, status: stillWaiting ? 'awaiting_approval' : 'streaming' },
        seq,
      })
      .where(and(eq(messages.id, messageId), isNull(messages.deletedAt)))
      .returning();
    if (!updated) throw notFound('Message not found');
    return updated;
  });
  const message = toWireMessage(row);
  ctx.broadcast.toChannel(channelId, 'newEditMessage', message);
  return message;
}

/** The card as stored now (the run polls it while waiting for a decision made on another node). */
export async function storedToolCall(
  db: Db,
  channelId: string,
  messageId: string,
  toolCallId: string,
): Promise<AgentToolCall | null> {
  const stored = await storedAnswer(db, channelId, messageId);
  return stored?.agentAnswer?.toolCalls.find((c) => c.id === toolCallId) ?? null;
}
