// What a tool's result becomes in an answer: its text, with the values of its connection's variables
// masked wherever the tool repeats them. Shared by the model's tool calls (agent-tools.ts) and the typed
// tool command (tool-command.ts); kept apart from them so that the command needs no AI SDK loaded.
import { MASKED_VALUE } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import type { McpConnectionRow } from '../mcp/connections.ts';
import { openEnvironment } from '../mcp/secret-box.ts';
import type { ToolResult } from '../mcp/session.ts';

type Ctx = Pick<AppContext, 'secrets'>;

export function secretValuesOf(ctx: Ctx, connection: McpConnectionRow): string[] {
  try {
    const values = Object.values(openEnvironment(ctx.secrets.mcpEncryptionKey, connection.environmentCipher));
    // Very short values would mask ordinary words; they are no secret worth the name either.
    return values.filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  } catch {
    return [];
  }
}

export function maskSecrets(text: string, secrets: string[]): string {
  let masked = text;
  for (const secret of secrets) masked = masked.split(secret).join(MASKED_VALUE);
  return masked;
}

/** A tool result as text: its text items, other items as JSON, or the structured content. */
export function toolResultText(result: ToolResult): string {
  const texts = result.content
    .map((item) =>
      typeof item === 'object' && item !== null && 'text' in item && typeof item.text === 'string'
        ? item.text
        : JSON.stringify(item),
    )
    .join('\n');
  return texts || JSON.stringify(result.structuredContent ?? null, null, 2);
}
