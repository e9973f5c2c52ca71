// A run with a language model: the context (instructions, the channel's recent messages, numbered
// passages), the agent's MCP tools, and the model's answer streamed into the answer message. It stops at
// the agent's cap on tool steps and after 3 tool failures in a row, each time saying so in the answer; a
// model that fails (down, HTTP error, bad key) ends the answer with a clear message.
import { APICallError, RetryError, type StopCondition, streamText, type ToolSet } from 'ai';
import type { AgentRunOutcome, Message } from '../../schemas/protocol/index.ts';
import { connectionsOfAgent } from '../mcp/connections.ts';
import type { MessagesContext } from '../messages/context.ts';
import { agentToolSet, MAX_CONSECUTIVE_FAILURES, withAgentConnections } from './agent-tools.ts';
import type { AgentRow } from './agents.ts';
import type { AnswerTarget } from './answer.ts';
import type { AnswerStream } from './answer-stream.ts';
import { htmlToText } from './extract.ts';
import type { ChosenModel } from './model-provider.ts';
import { retrievePassages } from './retrieval.ts';
import { buildRunContext } from './run-context.ts';
import { timeoutResult, waitForDecision } from './tool-approval.ts';

/** Passages of the agent's knowledge given to the model. */
export const MODEL_PASSAGES = 5;

export interface RunResult {
  outcome: AgentRunOutcome;
  tokensIn: number;
  tokensOut: number;
  toolCalls: string[];
  error: string | null;
}

export interface ModelRunInput {
  target: AnswerTarget;
  agent: AgentRow;
  agentName: string;
  askerName: string;
  question: Message;
  chosen: ChosenModel;
  answer: AnswerStream;
}

export const MODEL_FAILED_NOTE =
  "Sorry, I could not finish this answer: the language model did not answer. Admins can see why in the agent's runs.";

/** A model failure in words an admin can act on (the status and the server's own message). */
export function describeModelError(label: string, error: unknown): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  let detail: string;
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode ? `HTTP ${cause.statusCode}` : 'no response';
    detail = `${status}: ${cause.message}`;
  } else detail = cause instanceof Error ? cause.message : String(cause);
  return `The language model (${label}) failed: ${detail}`;
}

export async function answerWithModel(ctx: MessagesContext, input: ModelRunInput): Promise<RunResult> {
  const { target, agent, answer, chosen } = input;
  const questionText = htmlToText(input.question.content);
  const passages = await retrievePassages(ctx.db, agent.memberId, questionText, MODEL_PASSAGES);
  answer.setPassages(passages);
  const connections = await connectionsOfAgent(ctx, target.institutionId, agent.memberId);

  return withAgentConnections(ctx, connections, async (open, unavailable) => {
    const { system, prompt } = await buildRunContext(ctx.db, {
      agentName: input.agentName,
      instructions: agent.instructions,
      askerName: input.askerName,
      question: input.question,
      passages,
      unavailable,
    });
    const timeoutMs = ctx.config.AGENT_APPROVAL_TIMEOUT_MS;
    const kit = agentToolSet(open, {
      answer,
      approveAll: agent.approveAllTools,
      awaitDecision: (toolCallId) =>
        waitForDecision(ctx, target.channelId, answer.messageId, toolCallId, timeoutMs),
      timeoutText: timeoutResult(timeoutMs),
    });
    const toolSteps = (steps: { toolCalls: unknown[] }[]) =>
      steps.filter((s) => s.toolCalls.length > 0).length;
    const stopWhen: StopCondition<ToolSet>[] = [
      ({ steps }) => toolSteps(steps) >= agent.maxToolSteps,
      () => kit.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES,
    ];

    // A model server that stops sending must not hold the queue forever; the pause allowed covers a tool
    // call waiting for approval and then running (no chunk arrives meanwhile) and a slow first token.
    const silenceMs = Math.max(300_000, timeoutMs + ctx.config.MCP_TOOL_TIMEOUT_MS + 60_000);
    let failure: unknown = null;
    let tokensIn = 0;
    let tokensOut = 0;
    let stepsWithTools = 0;
    let lastFinish: string | undefined;
    const stream = streamText({
      model: chosen.model,
      system,
      prompt,
      ...(Object.keys(kit.tools).length ? { tools: kit.tools } : {}),
      stopWhen,
      ...(chosen.maxOutputTokens ? { maxOutputTokens: chosen.maxOutputTokens } : {}),
      maxRetries: 1,
      timeout: { chunkMs: silenceMs },
      // Failures arrive as 'error' parts below; the default would also print them to the console.
      onError: () => undefined,
    });
    for await (const part of stream.fullStream) {
      if (part.type === 'start-step') answer.breakParagraph();
      else if (part.type === 'text-delta') answer.appendText(part.text);
      else if (part.type === 'finish-step') {
        tokensIn += part.usage.inputTokens ?? 0;
        tokensOut += part.usage.outputTokens ?? 0;
        lastFinish = part.finishReason;
        if (part.finishReason === 'tool-calls') stepsWithTools += 1;
      } else if (part.type === 'error') failure = part.error;
      else if (part.type === 'abort')
        failure = new Error(`it sent nothing for ${Math.round(silenceMs / 60_000)} min`);
    }

    const base = { tokensIn, tokensOut, toolCalls: kit.called };
    if (failure) {
      const error = describeModelError(chosen.label, failure);
      // The model's own error (status, key, address) is for admins: it goes to the run's audit, not the channel.
      answer.addNote(MODEL_FAILED_NOTE);
      await answer.finish('failed');
      return { ...base, outcome: 'failed', error };
    }
    const wantedMore = lastFinish === 'tool-calls';
    let stopped: string | null = null;
    if (wantedMore && kit.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES)
      stopped = `I stopped after ${MAX_CONSECUTIVE_FAILURES} tool calls in a row failed.`;
    else if (wantedMore && stepsWithTools >= agent.maxToolSteps)
      stopped = `I stopped after ${agent.maxToolSteps} tool steps, the most this agent may take for one answer.`;
    if (stopped) answer.addNote(stopped);
    await answer.finish('done');
    return { ...base, outcome: stopped ? 'stopped' : 'succeeded', error: stopped };
  });
}
