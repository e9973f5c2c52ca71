// The agent's answer message: created at once as "Thinking…" (agentAnswer status 'thinking'), a reply to the
// asking message; answer-stream.ts then edits it (next seq, newEditMessage) to its final text or a clear failure.
import { randomUUID } from 'node:crypto';
import type { AgentCitation } from '../../schemas/protocol/index.ts';
import type { MessagesContext } from '../messages/context.ts';
import { createMessageRow } from '../messages/create.ts';
import { toWireMessage } from '../messages/wire.ts';
import type { Passage } from './retrieval.ts';

export const THINKING_HTML = '<p>Thinking…</p>';
/**
 * The line above the passages when no language model is configured. It does not say why: that is for the
 * workspace's admins (Agents settings says it, and the run is in the agent's audit), not for the channel.
 */
export const NO_MODEL_LINE = 'Here is what my knowledge says about that:';
export const NO_MATCH_LINE = 'I found nothing in my knowledge about that.';

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface AnswerTarget {
  institutionId: string;
  channelId: string;
  agentMemberId: string;
  agentUserId: string;
  replyTo: string;
}

export async function startAnswer(
  ctx: MessagesContext,
  target: AnswerTarget,
  runId: string,
  askerMemberId: string,
): Promise<string> {
  const { row, created } = await createMessageRow(ctx.db, {
    genId: randomUUID(),
    channelId: target.channelId,
    institutionId: target.institutionId,
    memberId: target.agentMemberId,
    content: THINKING_HTML,
    replyTo: target.replyTo,
    agentAnswer: { runId, status: 'thinking', askerMemberId, toolCalls: [], citations: [] },
  });
  if (created) ctx.broadcast.toChannel(target.channelId, 'newMessage', toWireMessage(row));
  return row.id;
}

/** A one-message answer that needs no run (e.g. the agent cannot read the channel): posted final at once. */
export async function postNote(ctx: MessagesContext, target: AnswerTarget, html: string): Promise<void> {
  const { row, created } = await createMessageRow(ctx.db, {
    genId: randomUUID(),
    channelId: target.channelId,
    institutionId: target.institutionId,
    memberId: target.agentMemberId,
    content: html,
    replyTo: target.replyTo,
  });
  if (created) ctx.broadcast.toChannel(target.channelId, 'newMessage', toWireMessage(row));
}

export const NOT_A_MEMBER_LINE =
  'I am not a member of this channel, so I cannot read it. Add me to the channel to ask me here.';

/** The no-provider answer's citations: every passage it quotes, numbered as in its text. */
export const passageCitations = (passages: Passage[]): AgentCitation[] =>
  passages.map((p, i) => ({ index: i + 1, sourceId: p.sourceId, title: p.title, passage: p.content }));

/** The no-provider answer: one line saying so, then each passage with its numbered citation. */
export function passagesAnswer(passages: Passage[]): string {
  if (passages.length === 0) return `<p>${NO_MATCH_LINE}</p>`;
  const body = passages
    .map(
      (p, i) =>
        `<blockquote><p>${escapeHtml(p.content)}</p></blockquote><p>[${i + 1}] <em>${escapeHtml(p.title)}</em></p>`,
    )
    .join('');
  return `<p>${NO_MODEL_LINE}</p>${body}`;
}

export const failureAnswer = (reason: string) => `<p>Sorry, I could not answer: ${escapeHtml(reason)}</p>`;
