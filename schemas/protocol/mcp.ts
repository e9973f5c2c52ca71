// MCP connections: the tools agents may use.
import { z } from 'zod';
import { NAME_MAX } from './limits.ts';
import { id } from './primitives.ts';

// ───────────────────────────── REST: MCP connections (agents' tools) ─────────────────────────────
/** Value the server returns in place of every stored environment variable: names only, never values. */
export const MASKED_VALUE = '••••';
const envName = z
  .string()
  .max(128, { abort: true })
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'Variable names use letters, digits and _ and do not start with a digit',
  );
/** Names to values; on update a value equal to MASKED_VALUE keeps the stored one. */
export const mcpEnvironmentVariables = z.record(envName, z.string().max(8_000)).default({});
export const mcpTransport = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    command: z.string().trim().min(1, 'Enter a command').max(1_000),
    args: z.array(z.string().max(2_000)).max(64).default([]),
  }),
  z.object({
    type: z.literal('http'),
    url: z
      .string()
      .trim()
      .max(2048, { abort: true })
      .url('Enter a valid URL')
      .refine((u) => /^https?:/i.test(u), 'Use an http(s) URL'),
    headers: z.record(z.string().min(1).max(256), z.string().max(8_000)).default({}),
  }),
]);
export type McpTransport = z.infer<typeof mcpTransport>;
export const mcpConnectionBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
  transport: mcpTransport,
  environmentVariables: mcpEnvironmentVariables,
});
export type McpConnectionBody = z.input<typeof mcpConnectionBody>;
export const mcpConnectBody = z.object({
  transport: mcpTransport,
  environmentVariables: mcpEnvironmentVariables,
  /** A saved connection whose stored variables fill in the masked (or missing) ones. */
  id: id.optional(),
});
export const mcpConnection = z.object({
  id,
  agentId: id,
  name: z.string(),
  transport: mcpTransport,
  /** Every stored variable by name, each value MASKED_VALUE. */
  environmentVariables: z.record(z.string(), z.literal(MASKED_VALUE)),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type McpConnection = z.infer<typeof mcpConnection>;
export const mcpConnectionsResponse = z.object({ data: z.array(mcpConnection) });
/** Creating, changing or deleting a connection answers with it (as it was, for a delete). */
export const mcpConnectionResponse = z.object({ connection: mcpConnection });
export const mcpTool = z.object({ name: z.string(), description: z.string().optional() });
export type McpTool = z.infer<typeof mcpTool>;
export const mcpConnectResponse = z.union([
  z.object({ tools: z.array(mcpTool) }),
  z.object({ error: z.string() }),
]);
export type McpConnectResponse = z.infer<typeof mcpConnectResponse>;
export const mcpTemplateVariable = z.object({
  name: z.string(),
  description: z.string(),
  required: z.boolean(),
});
export const mcpTemplate = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** A starting point for the form (empty command or URL for the custom ones); `{folder}`-style
   * placeholders in args name what the person chooses. */
  transport: z.discriminatedUnion('type', [
    z.object({ type: z.literal('stdio'), command: z.string(), args: z.array(z.string()) }),
    z.object({ type: z.literal('http'), url: z.string(), headers: z.record(z.string(), z.string()) }),
  ]),
  variables: z.array(mcpTemplateVariable),
  /** Not shipped with Lantern: the operator must install it (and allow its command) first. */
  needsInstallation: z.boolean(),
  /** Whether this server's command may be started under the operator's MCP_STDIO_ALLOWLIST. */
  allowed: z.boolean(),
});
export type McpTemplate = z.infer<typeof mcpTemplate>;
export const mcpTemplatesResponse = z.object({ data: z.array(mcpTemplate) });
