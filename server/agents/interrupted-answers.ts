// Answers whose run will never finish: the server stopped while they were thinking, streaming or
// waiting for an approval. Left alone they would show "thinking" forever; instead each one is closed as
// failed with a line that says what happened, and its run gets its audit row. A stopping server closes
// the answers it is running; a single server (no REDIS_URL, so no other node can be running them)
// also closes, when it starts, the ones a crash left behind.
import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { AgentAnswer } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { messages } from '../db/schema.ts';
import type { MessagesContext } from '../messages/context.ts';
import { escapeHtml, THINKING_HTML } from './answer.ts';
import { writeAnswer } from './answer-edit.ts';
import { endOpenToolCalls } from './answer-stream.ts';
import { recordRun } from './usage.ts';

export const INTERRUPTED_LINE = 'This answer was interrupted because the server restarted. Please ask again.';

/** Answers this server is running, per server (keyed by its database handle, as the run queues are). */
const running = new WeakMap<Db, Map<string, { closed: boolean }>>();

function runningOn(db: Db) {
  let map = running.get(db);
  if (!map) {
    map = new Map();
    running.set(db, map);
  }
  return map;
}

/** Marks an answer as being run here; the returned handle says whether a stop closed it meanwhile. */
export function trackAnswer(db: Db, answerId: string): { readonly closed: boolean; done(): void } {
  const state = { closed: false };
  runningOn(db).set(answerId, state);
  return {
    get closed() {
      return state.closed;
    },
    done: () => {
      runningOn(db).delete(answerId);
    },
  };
}

/** Closes the answers this server is still running (it is stopping). */
export async function closeRunningAnswers(ctx: Pick<MessagesContext, 'db' | 'broadcast'>): Promise<number> {
  const map = runningOn(ctx.db);
  const ids = [...map.keys()];
  for (const id of ids) {
    const state = map.get(id);
    if (state) state.closed = true;
  }
  return ids.length === 0 ? 0 : closeAnswers(ctx, ids);
}

/** Closes every unfinished answer in the database (a single server starting: nothing else runs them). */
export function closeAbandonedAnswers(ctx: Pick<MessagesContext, 'db' | 'broadcast'>): Promise<number> {
  return closeAnswers(ctx, null);
}

async function closeAnswers(
  ctx: Pick<MessagesContext, 'db' | 'broadcast'>,
  ids: string[] | null,
): Promise<number> {
  // Written as the partial index messages_unfinished_answer_idx is, so the planner uses it.
  const unfinished = sql`(${messages.agentAnswer}->>'status') in ('thinking', 'streaming', 'awaiting_approval')`;
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(and(unfinished, isNull(messages.deletedAt), ids ? inArray(messages.id, ids) : undefined));
  let closed = 0;
  for (const row of rows) {
    const answer = row.agentAnswer;
    if (!answer) continue;
    const failed: AgentAnswer = {
      ...answer,
      status: 'failed',
      toolCalls: endOpenToolCalls(answer.toolCalls),
    };
    const text = row.content === THINKING_HTML ? '' : row.content;
    const write = await writeAnswer(
      ctx,
      row.channelId,
      row.id,
      `${text}<p><em>${escapeHtml(INTERRUPTED_LINE)}</em></p>`,
      failed,
    ).catch(() => null);
    if (!write || 'skipped' in write) continue;
    closed += 1;
    await recordRun(ctx.db, {
      institutionId: row.institutionId,
      agentId: row.memberId,
      askerMemberId: answer.askerMemberId,
      channelId: row.channelId,
      answerMessageId: row.id,
      model: null,
      tokensIn: 0,
      tokensOut: 0,
      toolCalls: answer.toolCalls.map((c) => c.name),
      durationMs: Date.now() - row.createdAt.getTime(),
      outcome: 'failed',
      error: 'interrupted by a server restart',
    }).catch(() => undefined);
  }
  return closed;
}
