// The agent's MCP tools as a model sees them: one session per connection for the whole run, each tool
// offered with its input schema under a name models accept, and every call shown as a card (running,
// awaiting approval, succeeded, failed, rejected). Connection variables never reach the model: they are
// not in any tool definition, and a tool that echoes one back (get-env) has it masked in its result.
import { jsonSchema, type ToolSet, tool } from 'ai';
import type { AgentToolCall } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { type McpConnectionRow, withMcpSession } from '../mcp/connections.ts';
import type { McpSession, McpToolDefinition } from '../mcp/session.ts';
import type { AnswerStream } from './answer-stream.ts';
import type { Decision } from './tool-approval.ts';
import { maskSecrets, secretValuesOf, toolResultText } from './tool-results.ts';

type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets' | 'log'>;

export interface OpenConnection {
  connection: McpConnectionRow;
  session: McpSession;
  definitions: McpToolDefinition[];
  /** The connection's variable values, to mask wherever a tool's output repeats them. */
  secrets: string[];
}

/** A run stops after this many tool failures in a row. */
export const MAX_CONSECUTIVE_FAILURES = 3;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Opens every connection of the agent for the length of `use`. A connection that cannot be opened or
 * listed is left out and named in `unavailable` (the run goes on with the others).
 */
export async function withAgentConnections<T>(
  ctx: Ctx,
  connections: McpConnectionRow[],
  use: (open: OpenConnection[], unavailable: string[]) => Promise<T>,
): Promise<T> {
  const unavailable: string[] = [];
  const openFrom = async (i: number, open: OpenConnection[]): Promise<T> => {
    const connection = connections[i];
    if (!connection) return use(open, unavailable);
    let entered = false;
    try {
      return await withMcpSession(ctx, connection, async (session) => {
        entered = true;
        let definitions: McpToolDefinition[];
        try {
          definitions = await session.listToolDefinitions();
        } catch (error) {
          unavailable.push(`${connection.name} (${messageOf(error)})`);
          return openFrom(i + 1, open);
        }
        const secrets = secretValuesOf(ctx, connection);
        return openFrom(i + 1, [...open, { connection, session, definitions, secrets }]);
      });
    } catch (error) {
      if (entered) throw error;
      unavailable.push(`${connection.name} (${messageOf(error)})`);
      return openFrom(i + 1, open);
    }
  };
  return openFrom(0, []);
}

/** Names models accept (OpenAI: letters, digits, _ and -, at most 64), unique across connections. */
function modelToolName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'tool';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
  taken.add(candidate);
  return candidate;
}

export interface ToolRunOptions {
  answer: AnswerStream;
  /** Every tool waits for approval (the agent's setting), not only those marked destructive. */
  approveAll: boolean;
  /** Waits for the asker's decision on a card already shown as awaiting approval. */
  awaitDecision: (toolCallId: string) => Promise<Decision>;
  timeoutText: string;
}

export interface ToolRunState {
  tools: ToolSet;
  /** Tools called, in order (for the audit), including rejected ones. */
  called: string[];
  consecutiveFailures: number;
}

export function agentToolSet(open: OpenConnection[], options: ToolRunOptions): ToolRunState {
  const state: ToolRunState = { tools: {}, called: [], consecutiveFailures: 0 };
  const taken = new Set<string>();
  for (const { connection, session, definitions, secrets } of open) {
    for (const definition of definitions) {
      const name = modelToolName(definition.name, taken);
      const needsApproval = options.approveAll || definition.destructive;
      state.tools[name] = tool({
        ...(definition.description ? { description: definition.description } : {}),
        inputSchema: jsonSchema<Record<string, unknown>>(
          definition.inputSchema.type === 'object'
            ? definition.inputSchema
            : { type: 'object', properties: {} },
        ),
        execute: async (input, { toolCallId }) => {
          const args = input && typeof input === 'object' ? input : {};
          const card: AgentToolCall = {
            id: toolCallId,
            name: definition.name,
            connectionName: connection.name,
            arguments: JSON.stringify(args),
            result: null,
            status: needsApproval ? 'awaiting_approval' : 'running',
            destructive: definition.destructive,
          };
          state.called.push(definition.name);
          options.answer.setToolCall(card);
          if (needsApproval) {
            await options.answer.flush();
            const decision = await options.awaitDecision(toolCallId);
            if (decision !== 'approved') {
              const result =
                decision === 'timed_out' ? options.timeoutText : 'Rejected by the person who asked.';
              options.answer.setToolCall({ ...card, status: 'rejected', result });
              return decision === 'timed_out'
                ? 'Nobody approved this tool call in time, so it was not run. Do not call it again; tell the person.'
                : 'The person who asked declined this tool call, so it was not run. Do not call it again; answer without it.';
            }
            options.answer.setToolCall({ ...card, status: 'running' });
          }
          try {
            const result = await session.callTool(definition.name, args);
            const text = maskSecrets(toolResultText(result), secrets);
            state.consecutiveFailures = result.isError ? state.consecutiveFailures + 1 : 0;
            options.answer.setToolCall({
              ...card,
              status: result.isError ? 'failed' : 'succeeded',
              result: text,
            });
            return result.isError ? `The tool reported an error: ${text}` : text;
          } catch (error) {
            state.consecutiveFailures += 1;
            const text = maskSecrets(messageOf(error), secrets);
            options.answer.setToolCall({ ...card, status: 'failed', result: text });
            return `The tool failed: ${text}`;
          }
        },
      });
    }
  }
  return state;
}
