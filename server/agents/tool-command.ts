// The tool command: a question of the form `/tool-name {json}` runs that MCP tool directly on the agent's
// connections (the first one that lists it) and answers with the result, so tools are usable without any
// language model. A destructive tool (or any, when the agent asks before every tool) still waits for the
// asker's approval on its card: a pasted or mistyped command must not delete anything unconfirmed.
import { randomUUID } from 'node:crypto';
import type { AgentToolCall } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { connectionsOfAgent, withMcpSession } from '../mcp/connections.ts';
import { escapeHtml } from './answer.ts';
import type { Decision } from './tool-approval.ts';
import { maskSecrets, secretValuesOf, toolResultText } from './tool-results.ts';

export interface ToolCommand {
  name: string;
  args: Record<string, unknown>;
}

export interface ToolCommandAnswer {
  html: string;
  /** The card of the call, when a connection had the tool. */
  toolCall: AgentToolCall | null;
  ok: boolean;
}

type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets' | 'log'>;

const NAME_START = /[A-Za-z0-9_]/;
const NAME_PART = /[\w.-]/;
const SPACE = /\s/;

/**
 * Where the command starts and ends in trimmed text: the first "/name" that follows the start or a space
 * and is followed only by spaces, or by spaces and one {…} reaching the end. A scan, not one regex: the
 * former `(?:^|\s)\/(…)\s*(\{[\s\S]*\})?\s*$` restarted at every "/" and ran to the end each time, so a
 * question of many " /a {" took quadratic time.
 */
function findCommand(text: string): { name: string; json: string | null } | null {
  for (let slash = text.indexOf('/'); slash >= 0; slash = text.indexOf('/', slash + 1)) {
    if (slash > 0 && !SPACE.test(text.charAt(slash - 1))) continue;
    if (!NAME_START.test(text.charAt(slash + 1))) continue;
    let end = slash + 2;
    while (end < text.length && NAME_PART.test(text.charAt(end))) end++;
    let rest = end;
    while (rest < text.length && SPACE.test(text.charAt(rest))) rest++;
    const name = text.slice(slash + 1, end);
    if (rest === text.length) return { name, json: null };
    // Trimmed text ends in "}" exactly when the regex's `\{[\s\S]*\}\s*$` would have matched.
    if (text.charAt(rest) === '{' && rest < text.length - 1 && text.endsWith('}'))
      return { name, json: text.slice(rest) };
    // Any later "/" that could start a command lies after this name: continue from there.
    slash = end - 1;
  }
  return null;
}

/** The command in a question's text, or null when it is an ordinary question (or its JSON is not an object). */
export function parseToolCommand(text: string): ToolCommand | { error: string } | null {
  const match = findCommand(text.trim());
  if (!match) return null;
  if (match.json === null) return { name: match.name, args: {} };
  try {
    const args: unknown = JSON.parse(match.json);
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return { error: 'The arguments after the tool name must be one JSON object.' };
    return { name: match.name, args: args as Record<string, unknown> };
  } catch {
    return { error: `The arguments of /${match.name} are not valid JSON.` };
  }
}

export interface ToolCommandOptions {
  /** Every tool waits for approval (the agent's setting), not only those marked destructive. */
  approveAll: boolean;
  /** Shows the card as awaiting approval and waits for the asker's decision. */
  awaitApproval: (card: AgentToolCall) => Promise<Decision>;
  timeoutText: string;
}

/** Runs the command; failures come back as a clear answer, never a throw. */
export async function runToolCommand(
  ctx: Ctx,
  institutionId: string,
  agentId: string,
  command: ToolCommand,
  options: ToolCommandOptions,
): Promise<ToolCommandAnswer> {
  const connections = await connectionsOfAgent(ctx, institutionId, agentId);
  const failures: string[] = [];
  const name = escapeHtml(command.name);
  for (const connection of connections) {
    try {
      const answer = await withMcpSession(
        ctx,
        connection,
        async (session): Promise<ToolCommandAnswer | null> => {
          const tools = await session.listToolDefinitions();
          const found = tools.find((t) => t.name === command.name);
          if (!found) return null;
          const secrets = secretValuesOf(ctx, connection);
          const card: AgentToolCall = {
            id: randomUUID(),
            name: command.name,
            connectionName: connection.name,
            arguments: JSON.stringify(command.args),
            result: null,
            status: 'running',
            destructive: found.destructive,
          };
          if (options.approveAll || found.destructive) {
            const decision = await options.awaitApproval({ ...card, status: 'awaiting_approval' });
            if (decision !== 'approved') {
              const result =
                decision === 'timed_out' ? options.timeoutText : 'Rejected by the person who asked.';
              return {
                html: `<p>The tool <code>${name}</code> was not run: ${escapeHtml(result)}</p>`,
                toolCall: { ...card, status: 'rejected', result },
                ok: false,
              };
            }
          }
          try {
            const result = await session.callTool(command.name, command.args);
            const text = maskSecrets(toolResultText(result), secrets);
            const heading = result.isError
              ? `<p>The tool <code>${name}</code> reported an error:</p>`
              : `<p>Result of <code>${name}</code>:</p>`;
            return {
              html: `${heading}<pre><code>${escapeHtml(text)}</code></pre>`,
              toolCall: { ...card, status: result.isError ? 'failed' : 'succeeded', result: text },
              ok: !result.isError,
            };
          } catch (error) {
            // The tool exists here, so its failure is the answer (trying another connection would hide it).
            const reason = maskSecrets(error instanceof Error ? error.message : String(error), secrets);
            return {
              html: `<p>The tool <code>${name}</code> failed: ${escapeHtml(reason)}</p>`,
              toolCall: { ...card, status: 'failed', result: reason },
              ok: false,
            };
          }
        },
      );
      if (answer) return answer;
    } catch (error) {
      failures.push(`${connection.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const unreachable = failures.length ? ` (could not reach ${failures.join('; ')})` : '';
  return {
    html: `<p>No connected tool is named <code>${name}</code>${escapeHtml(unreachable)}.</p>`,
    toolCall: null,
    ok: false,
  };
}
