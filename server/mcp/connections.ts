// MCP connections of an agent: stored with encrypted variables, listed with masked values, tested without
// saving, and opened for runs (withMcpSession / callTool). Admins only; stdio commands must be allowlisted.
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MASKED_VALUE,
  type McpConnection,
  type McpConnectResponse,
  type McpTransport,
  type mcpConnectBody,
  type mcpConnectionBody,
} from '../../schemas/protocol.ts';
import { requireWorkspaceAdmin } from '../access.ts';
import { requireAgent } from '../agents/agents.ts';
import type { AppContext } from '../context.ts';
import { mcpConnections } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { parseAllowlist, requireAllowed } from './allowlist.ts';
import { openEnvironment, sealEnvironment } from './secret-box.ts';
import { type McpSession, openSession, type ToolResult } from './session.ts';

export type McpConnectionRow = typeof mcpConnections.$inferSelect;
type ConnectionBody = z.infer<typeof mcpConnectionBody>;
type ConnectBody = z.infer<typeof mcpConnectBody>;
type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets'>;

const toWire = (row: McpConnectionRow): McpConnection => ({
  id: row.id,
  agentId: row.agentId,
  name: row.name,
  transport: row.transport,
  environmentVariables: Object.fromEntries(row.environmentNames.map((n) => [n, MASKED_VALUE] as const)),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

function checkTransport(ctx: Ctx, transport: McpTransport) {
  if (transport.type === 'stdio')
    requireAllowed(parseAllowlist(ctx.config.MCP_STDIO_ALLOWLIST), transport.command, transport.args);
}

/** New values replace, masked ones keep what is stored, names left out are removed. */
function mergeVariables(
  stored: Record<string, string>,
  given: Record<string, string>,
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value !== MASKED_VALUE) merged[name] = value;
    else if (stored[name] !== undefined) merged[name] = stored[name];
  }
  return merged;
}

const storedVariables = (ctx: Ctx, row: McpConnectionRow) =>
  openEnvironment(ctx.secrets.mcpEncryptionKey, row.environmentCipher);

async function findRow(ctx: Ctx, institutionId: string, connectionId: string, agentId?: string) {
  const [row] = await ctx.db
    .select()
    .from(mcpConnections)
    .where(
      and(
        eq(mcpConnections.id, connectionId),
        eq(mcpConnections.institutionId, institutionId),
        ...(agentId ? [eq(mcpConnections.agentId, agentId)] : []),
      ),
    )
    .limit(1);
  if (!row) throw notFound('MCP connection not found');
  return row;
}

export async function listConnections(ctx: Ctx, userId: string, institutionId: string, agentId: string) {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  await requireAgent(ctx.db, institutionId, agentId);
  const rows = await ctx.db
    .select()
    .from(mcpConnections)
    .where(and(eq(mcpConnections.institutionId, institutionId), eq(mcpConnections.agentId, agentId)))
    .orderBy(asc(mcpConnections.createdAt));
  return rows.map(toWire);
}

/** The agent's stored connections with their real variables: for runs only, never for a response. */
export async function connectionsOfAgent(ctx: Ctx, institutionId: string, agentId: string) {
  return ctx.db
    .select()
    .from(mcpConnections)
    .where(and(eq(mcpConnections.institutionId, institutionId), eq(mcpConnections.agentId, agentId)))
    .orderBy(asc(mcpConnections.createdAt));
}

export async function createConnection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  agentId: string,
  body: ConnectionBody,
): Promise<McpConnection> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  await requireAgent(ctx.db, institutionId, agentId);
  checkTransport(ctx, body.transport);
  const variables = mergeVariables({}, body.environmentVariables);
  const [row] = await ctx.db
    .insert(mcpConnections)
    .values({
      id: randomUUID(),
      institutionId,
      agentId,
      name: body.name,
      transport: body.transport,
      environmentCipher: sealEnvironment(ctx.secrets.mcpEncryptionKey, variables),
      environmentNames: Object.keys(variables),
    })
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return toWire(row);
}

export async function updateConnection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  agentId: string,
  connectionId: string,
  body: ConnectionBody,
): Promise<McpConnection> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  await requireAgent(ctx.db, institutionId, agentId);
  const existing = await findRow(ctx, institutionId, connectionId, agentId);
  checkTransport(ctx, body.transport);
  const variables = mergeVariables(storedVariables(ctx, existing), body.environmentVariables);
  const [row] = await ctx.db
    .update(mcpConnections)
    .set({
      name: body.name,
      transport: body.transport,
      environmentCipher: sealEnvironment(ctx.secrets.mcpEncryptionKey, variables),
      environmentNames: Object.keys(variables),
      updatedAt: new Date(),
    })
    .where(eq(mcpConnections.id, existing.id))
    .returning();
  if (!row) throw notFound('MCP connection not found');
  return toWire(row);
}

export async function deleteConnection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  agentId: string,
  connectionId: string,
): Promise<McpConnection> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  await requireAgent(ctx.db, institutionId, agentId);
  const existing = await findRow(ctx, institutionId, connectionId, agentId);
  await ctx.db.delete(mcpConnections).where(eq(mcpConnections.id, existing.id));
  return toWire(existing);
}

const sessionOptions = (ctx: Ctx) => ({
  connectTimeoutMs: ctx.config.MCP_CONNECT_TIMEOUT_MS,
  toolTimeoutMs: ctx.config.MCP_TOOL_TIMEOUT_MS,
});

/** "Test connection": connects, lists the tools and closes, saving nothing; failures come back as {error}. */
export async function testConnection(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  body: ConnectBody,
): Promise<McpConnectResponse> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  checkTransport(ctx, body.transport);
  const stored = body.id ? storedVariables(ctx, await findRow(ctx, institutionId, body.id)) : {};
  // Stored values fill in masked fields and names the form left out (it may show only new ones).
  const variables = { ...stored, ...mergeVariables(stored, body.environmentVariables) };
  let session: McpSession | undefined;
  try {
    session = await openSession(body.transport, variables, sessionOptions(ctx));
    return { tools: await session.listTools() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await session?.close();
  }
}

/**
 * Opens a stored connection for the length of `use` (one agent run may call several tools), then closes it.
 * The allowlist is checked again: the operator may have narrowed it since the connection was saved.
 */
export async function withMcpSession<T>(
  ctx: Ctx,
  connection: McpConnectionRow,
  use: (session: McpSession) => Promise<T>,
): Promise<T> {
  checkTransport(ctx, connection.transport);
  const session = await openSession(
    connection.transport,
    storedVariables(ctx, connection),
    sessionOptions(ctx),
  );
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

/** One tool call on a stored connection, with the configured time-out; throws McpConnectionError on failure. */
export function callTool(
  ctx: Ctx,
  connection: McpConnectionRow,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  return withMcpSession(ctx, connection, (session) => session.callTool(name, args));
}
