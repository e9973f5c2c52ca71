// What an agent's answer message carries: its run state, tool calls and citations.
import { z } from 'zod';
import { id } from './primitives.ts';

/** Longest tool-call arguments or result text kept on an answer (the rest is cut, marked with …). */
export const TOOL_CALL_TEXT_MAX = 4_000;
/**
 * One tool call of an agent's run, shown as a card under the answer. `awaiting_approval`: the tool is
 * destructive (or the agent asks before every tool) and waits for the asking member's decision.
 */
export const agentToolCallStatus = z.enum([
  'running',
  'awaiting_approval',
  'rejected',
  'succeeded',
  'failed',
]);
export type AgentToolCallStatus = z.infer<typeof agentToolCallStatus>;
export const agentToolCall = z.object({
  id: z.string(),
  name: z.string(),
  /** The MCP connection that offers the tool. */
  connectionName: z.string(),
  /** JSON text of the arguments, as the model (or the tool command) gave them. */
  arguments: z.string(),
  /** The tool's text result or error; null until it has run. */
  result: z.string().nullable(),
  status: agentToolCallStatus,
  destructive: z.boolean(),
});
export type AgentToolCall = z.infer<typeof agentToolCall>;
/** A passage an answer used; the answer's text refers to it as [index]. */
export const agentCitation = z.object({
  index: z.number().int().positive(),
  sourceId: id,
  title: z.string(),
  passage: z.string(),
});
export type AgentCitation = z.infer<typeof agentCitation>;
/** thinking: nothing written yet; streaming: text is arriving; done/failed: final. */
export const agentAnswerStatus = z.enum(['thinking', 'streaming', 'awaiting_approval', 'done', 'failed']);
export type AgentAnswerStatus = z.infer<typeof agentAnswerStatus>;
/** Set on an agent's answer message: the run's state, its tool calls and the passages it cites. */
export const agentAnswer = z.object({
  runId: id,
  status: agentAnswerStatus,
  /** The member who asked: the only one who may approve or reject its tool calls. */
  askerMemberId: id,
  toolCalls: z.array(agentToolCall),
  citations: z.array(agentCitation),
});
export type AgentAnswer = z.infer<typeof agentAnswer>;
