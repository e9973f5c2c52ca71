// Starting agent runs after a post commits: which agents the message invokes (an agent mention, or any
// message in a direct conversation with one), whether the asker may invoke each, and the queued run that
// answers. The run reads only the asking message's channel, only while the asker can read it, and only the
// agent's own knowledge.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Message } from '../../schemas/protocol/index.ts';
import type { MemberRow } from '../access.ts';
import { announceChannelMembers } from '../channels/member-events.ts';
import { membershipOf, standingIn } from '../channels/permissions.ts';
import { addChannelMember } from '../channels/setup.ts';
import { agents, channelMembers, type channels, members, users } from '../db/schema.ts';
import type { MessagesContext } from '../messages/context.ts';
import { metricsOf } from '../operations/metrics.ts';
import type { AgentRow } from './agents.ts';
import {
  type AnswerTarget,
  NOT_A_MEMBER_LINE,
  passageCitations,
  passagesAnswer,
  postNote,
  startAnswer,
} from './answer.ts';
import { AnswerStream } from './answer-stream.ts';
import { htmlToText } from './extract.ts';
import { trackAnswer } from './interrupted-answers.ts';
import { chooseModel, ModelChoiceError } from './model-provider.ts';
import type { RunResult } from './model-run.ts';
import { retrievePassages } from './retrieval.ts';
import { enqueueRun } from './run-queue.ts';
import { timeoutResult, waitForDecision } from './tool-approval.ts';
import { parseToolCommand, runToolCommand } from './tool-command.ts';
import { dailyCapRefusal, recordRun, serverDailyTokenCap } from './usage.ts';

/**
 * Fire and forget: a post never waits for, or fails because of, an agent. The poster and channel are the
 * rows the post already loaded, so an ordinary message (no agent mentioned, not a direct message) costs
 * no query at all.
 */
export function startAgentRuns(
  ctx: MessagesContext,
  message: Message,
  asker: MemberRow,
  channel: ChannelRow,
): void {
  // Agents never invoke agents: no loops between two of them.
  if (asker.kind === 'agent') return;
  if (channel.type !== 'direct_message' && !message.mentions.some((m) => m.type === 'agent')) return;
  void invokeAgents(ctx, message, asker, channel).catch(() => undefined);
}

type ChannelRow = typeof channels.$inferSelect;

async function invokedAgentIds(
  ctx: MessagesContext,
  message: Message,
  channel: ChannelRow,
): Promise<string[]> {
  const ids = new Set(message.mentions.filter((m) => m.type === 'agent').map((m) => m.id));
  if (channel.type === 'direct_message') {
    const others = await ctx.db
      .select({ id: channelMembers.memberId })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, channel.id), ne(channelMembers.memberId, message.memberId)));
    for (const o of others) ids.add(o.id);
  }
  return [...ids];
}

async function mayInvoke(ctx: MessagesContext, agent: AgentRow, asker: MemberRow, channel: ChannelRow) {
  if (agent.invokableBy === 'nobody') return false;
  if (agent.invokableBy === 'channel_owners') return (await standingIn(ctx.db, asker, channel)).isManager;
  return true;
}

async function invokeAgents(
  ctx: MessagesContext,
  message: Message,
  asker: MemberRow,
  channel: ChannelRow,
): Promise<void> {
  const { db } = ctx;
  const ids = await invokedAgentIds(ctx, message, channel);
  if (ids.length === 0) return;
  const found = await db
    .select({ agent: agents, userId: members.userId, name: users.name })
    .from(agents)
    .innerJoin(members, eq(members.id, agents.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(inArray(agents.memberId, ids), eq(agents.institutionId, message.institutionId)));
  for (const { agent, userId, name } of found) {
    if (!(await mayInvoke(ctx, agent, asker, channel))) continue;
    const target: AnswerTarget = {
      institutionId: message.institutionId,
      channelId: channel.id,
      agentMemberId: agent.memberId,
      agentUserId: userId,
      replyTo: message.id,
    };
    if (!(await agentCanAnswerIn(ctx, agent, channel))) {
      // Never silence: say why, in one line that reveals nothing, where the asker can post anyway.
      if ((await standingIn(db, asker, channel)).permissions.canPost)
        await postNote(ctx, target, `<p>${NOT_A_MEMBER_LINE}</p>`);
      continue;
    }
    const run: Run = { target, agent, agentName: name, asker, question: message, runId: randomUUID() };
    const answerId = await startAnswer(ctx, target, run.runId, asker.id);
    const tracked = trackAnswer(db, answerId);
    const queued = {
      institutionId: message.institutionId,
      agentId: agent.memberId,
      channelId: channel.id,
      runsPerWorkspace: ctx.config.AGENT_RUNS_PER_WORKSPACE,
    };
    void enqueueRun(db, queued, () => runAgent(ctx, run, answerId, tracked)).finally(tracked.done);
  }
}

/**
 * The agent answers where it is a member; mentioned in a public channel it is not in, it joins (anyone
 * could add it there). In a private channel it must have been added by someone who may.
 */
async function agentCanAnswerIn(
  ctx: MessagesContext,
  agent: AgentRow,
  channel: ChannelRow,
): Promise<boolean> {
  if (await membershipOf(ctx.db, channel.id, agent.memberId)) return true;
  if (channel.type !== 'public') return false;
  const { added } = await addChannelMember(ctx.db, channel.id, agent.memberId);
  if (added) announceChannelMembers(ctx, channel.id);
  return true;
}

interface Run {
  target: AnswerTarget;
  agent: AgentRow;
  agentName: string;
  asker: MemberRow;
  question: Message;
  runId: string;
}

class RunFailure extends Error {
  override name = 'RunFailure';
}

async function memberName(ctx: MessagesContext, member: MemberRow): Promise<string> {
  const [row] = await ctx.db
    .select({ name: users.name })
    .from(users)
    .where(eq(users.id, member.userId))
    .limit(1);
  return row?.name ?? 'a member';
}

/** The run itself, whichever way it answers; it always ends in a final answer and one audit row. */
async function answer(
  ctx: MessagesContext,
  run: Run,
  stream: AnswerStream,
): Promise<RunResult & { model: string | null }> {
  const { target, agent, asker, question } = run;
  const none = { tokensIn: 0, tokensOut: 0, toolCalls: [], error: null, model: null };
  const refusal = await dailyCapRefusal(
    ctx.db,
    target.institutionId,
    serverDailyTokenCap(ctx.config.AGENT_DAILY_TOKEN_CAP),
  );
  if (refusal) {
    stream.addNote(refusal);
    await stream.finish('failed');
    return { ...none, outcome: 'refused', error: refusal };
  }
  // Scope: the asker must still be able to read the channel the question was asked in.
  if (!(await membershipOf(ctx.db, target.channelId, asker.id)))
    throw new RunFailure('the person who asked can no longer read this channel');
  const text = htmlToText(question.content);
  // `/tool-name {json}` runs that MCP tool directly, with or without a model: it is the asker's own call.
  const command = parseToolCommand(text);
  if (command && 'error' in command) throw new RunFailure(command.error);
  if (command) {
    const timeoutMs = ctx.config.AGENT_APPROVAL_TIMEOUT_MS;
    const result = await runToolCommand(ctx, target.institutionId, agent.memberId, command, {
      approveAll: agent.approveAllTools,
      timeoutText: timeoutResult(timeoutMs),
      awaitApproval: async (card) => {
        stream.setToolCall(card);
        await stream.flush();
        return waitForDecision(ctx, target.channelId, stream.messageId, card.id, timeoutMs);
      },
    });
    stream.setHtml(result.html);
    if (result.toolCall) stream.setToolCall(result.toolCall);
    await stream.finish(result.ok ? 'done' : 'failed');
    return {
      ...none,
      toolCalls: result.toolCall ? [command.name] : [],
      outcome: result.ok ? 'succeeded' : 'failed',
      error: result.ok ? null : (result.toolCall?.result ?? `no connected tool is named ${command.name}`),
    };
  }
  const chosen = await chooseModel(ctx.config, agent.model);
  if (!chosen) {
    const passages = await retrievePassages(ctx.db, agent.memberId, text);
    stream.setHtml(passagesAnswer(passages));
    stream.setCitations(passageCitations(passages));
    await stream.finish('done');
    return { ...none, outcome: 'succeeded' };
  }
  // The AI SDK and the tools' MCP client load with the first answer a model writes, not at start.
  const { answerWithModel } = await import('./model-run.ts');
  const result = await answerWithModel(ctx, {
    target,
    agent,
    agentName: run.agentName,
    askerName: await memberName(ctx, asker),
    question,
    chosen,
    answer: stream,
  });
  return { ...result, model: chosen.label };
}

async function runAgent(
  ctx: MessagesContext,
  run: Run,
  answerId: string,
  tracked: { readonly closed: boolean },
): Promise<void> {
  // Closed by a stopping server while it waited its turn: its audit row is written already.
  if (tracked.closed) return;
  const started = Date.now();
  const stream = new AnswerStream(ctx, run.target, answerId, run.runId, run.asker.id);
  let result: RunResult & { model: string | null };
  try {
    result = await answer(ctx, run, stream);
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'something went wrong';
    // A RunFailure is meant for the asker; anything else is the server's own trouble, kept for the audit.
    const shown =
      err instanceof RunFailure
        ? reason
        : err instanceof ModelChoiceError
          ? "this agent's language model is not available on this server. Admins can see why in the agent's runs"
          : 'something went wrong';
    stream.addNote(`Sorry, I could not answer: ${shown}`);
    await stream.finish('failed').catch(() => undefined);
    result = { outcome: 'failed', error: reason, tokensIn: 0, tokensOut: 0, toolCalls: [], model: null };
  }
  if (stream.wasClosedElsewhere) return;
  metricsOf(ctx.db)?.agentRuns.inc({ outcome: result.outcome });
  await recordRun(ctx.db, {
    institutionId: run.target.institutionId,
    agentId: run.agent.memberId,
    askerMemberId: run.asker.id,
    channelId: run.target.channelId,
    answerMessageId: answerId,
    model: result.model,
    tokensIn: result.tokensIn,
    tokensOut: result.tokensOut,
    toolCalls: result.toolCalls,
    durationMs: Date.now() - started,
    outcome: result.outcome,
    error: result.error,
  }).catch(() => undefined);
}
