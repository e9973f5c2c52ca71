// The no-model tool command: a question of the form `/tool-name {json}` runs that MCP tool directly on the
// agent's connections (the first one that lists it) and answers with the result, so tools are usable
// without any language model.
import type { AppContext } from '../context.ts';
import { connectionsOfAgent, withMcpSession } from '../mcp/connections.ts';
import type { ToolResult } from '../mcp/session.ts';
import { escapeHtml } from './answer.ts';

export interface ToolCommand {
  name: string;
  args: Record<string, unknown>;
}

type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets'>;

// After the mention (or at the start): "/name", then optionally one JSON object and nothing else.
const COMMAND = /(?:^|\s)\/([A-Za-z0-9_][\w.-]*)\s*(\{[\s\S]*\})?\s*$/;

/** The command in a question's text, or null when it is an ordinary question (or its JSON is not an object). */
export function parseToolCommand(text: string): ToolCommand | { error: string } | null {
  const match = COMMAND.exec(text.trim());
  if (!match?.[1]) return null;
  if (!match[2]) return { name: match[1], args: {} };
  try {
    const args: unknown = JSON.parse(match[2]);
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return { error: 'The arguments after the tool name must be one JSON object.' };
    return { name: match[1], args: args as Record<string, unknown> };
  } catch {
    return { error: `The arguments of /${match[1]} are not valid JSON.` };
  }
}

function resultHtml(name: string, result: ToolResult): string {
  const texts = result.content
    .map((item) =>
      typeof item === 'object' && item !== null && 'text' in item && typeof item.text === 'string'
        ? item.text
        : JSON.stringify(item),
    )
    .join('\n');
  const body = texts || JSON.stringify(result.structuredContent ?? null, null, 2);
  const heading = result.isError
    ? `<p>The tool <code>${escapeHtml(name)}</code> reported an error:</p>`
    : `<p>Result of <code>${escapeHtml(name)}</code>:</p>`;
  return `${heading}<pre><code>${escapeHtml(body)}</code></pre>`;
}

/** Runs the command and returns the answer's HTML; failures come back as a clear message, never a throw. */
export async function runToolCommand(
  ctx: Ctx,
  institutionId: string,
  agentId: string,
  command: ToolCommand,
): Promise<string> {
  const connections = await connectionsOfAgent(ctx, institutionId, agentId);
  const failures: string[] = [];
  for (const connection of connections) {
    try {
      const answer = await withMcpSession(ctx, connection, async (session) => {
        const tools = await session.listTools();
        if (!tools.some((t) => t.name === command.name)) return null;
        try {
          return resultHtml(command.name, await session.callTool(command.name, command.args));
        } catch (error) {
          // The tool exists here, so its failure is the answer (trying another connection would hide it).
          const reason = error instanceof Error ? error.message : String(error);
          return `<p>The tool <code>${escapeHtml(command.name)}</code> failed: ${escapeHtml(reason)}</p>`;
        }
      });
      if (answer) return answer;
    } catch (error) {
      failures.push(`${connection.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const unreachable = failures.length ? ` (could not reach ${failures.join('; ')})` : '';
  return `<p>No connected tool is named <code>${escapeHtml(command.name)}</code>${escapeHtml(unreachable)}.</p>`;
}
