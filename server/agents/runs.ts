// Starting agent runs after a post commits: which agents the message invokes (an agent mention, or any
// message in a direct conversation with one), whether the asker may invoke each, and the queued run that
// answers. The run reads only the asking message's channel, only while the asker can read it, and only the
// agent's own knowledge.
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Message } from '../../schemas/protocol.ts';
import type { MemberRow } from '../access.ts';
import { agents, channelMembers, channels, members } from '../db/schema.ts';
import type { MessagesContext } from '../messages/context.ts';
import { membershipOf, standingIn } from '../services/channel-permissions.ts';
import { addChannelMember } from '../services/channel-setup.ts';
import type { AgentRow } from './agents.ts';
import {
  type AnswerTarget,
  failureAnswer,
  finishAnswer,
  NOT_A_MEMBER_LINE,
  passagesAnswer,
  postNote,
  startAnswer,
} from './answer.ts';
import { htmlToText } from './extract.ts';
import { retrievePassages } from './retrieval.ts';
import { enqueueRun } from './run-queue.ts';
import { parseToolCommand, runToolCommand } from './tool-command.ts';

/** Fire and forget: a post never waits for, or fails because of, an agent. */
export function startAgentRuns(ctx: MessagesContext, message: Message): void {
  void invokeAgents(ctx, message).catch(() => undefined);
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

async function invokeAgents(ctx: MessagesContext, message: Message): Promise<void> {
  const { db } = ctx;
  const [asker] = await db.select().from(members).where(eq(members.id, message.memberId)).limit(1);
  // Agents never invoke agents: no loops between two of them.
  if (!asker || asker.kind === 'agent') return;
  const [channel] = await db.select().from(channels).where(eq(channels.id, message.channelId)).limit(1);
  if (!channel) return;
  const ids = await invokedAgentIds(ctx, message, channel);
  if (ids.length === 0) return;
  const found = await db
    .select({ agent: agents, userId: members.userId })
    .from(agents)
    .innerJoin(members, eq(members.id, agents.memberId))
    .where(and(inArray(agents.memberId, ids), eq(agents.institutionId, message.institutionId)));
  for (const { agent, userId } of found) {
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
    const answerId = await startAnswer(ctx, target);
    void enqueueRun(db, agent.memberId, channel.id, () => runAgent(ctx, target, answerId, asker, message));
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
  await addChannelMember(ctx.db, channel.id, agent.memberId);
  return true;
}

async function runAgent(
  ctx: MessagesContext,
  target: AnswerTarget,
  answerId: string,
  asker: MemberRow,
  question: Message,
): Promise<void> {
  try {
    // Scope: the asker must still be able to read the channel the question was asked in.
    if (!(await membershipOf(ctx.db, target.channelId, asker.id)))
      throw new Error('the person who asked can no longer read this channel');
    const text = htmlToText(question.content);
    // No model is configured (the only path so far): `/tool-name {json}` runs that MCP tool directly.
    const command = parseToolCommand(text);
    if (command && 'error' in command) throw new Error(command.error);
    if (command) {
      const html = await runToolCommand(ctx, target.institutionId, target.agentMemberId, command);
      await finishAnswer(ctx, target, answerId, html);
      return;
    }
    const passages = await retrievePassages(ctx.db, target.agentMemberId, text);
    await finishAnswer(ctx, target, answerId, passagesAnswer(passages));
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'something went wrong';
    await finishAnswer(ctx, target, answerId, failureAnswer(reason)).catch(() => undefined);
  }
}
