// MCP connections of an agent: stored with encrypted variables, listed with masked values, tested without
// saving, and opened for runs (withMcpSession / callTool). Admins only, and an admin is anyone with an
// account, so the operator's rules decide what runs: stdio command lines on the allowlist with only the
// variables their template or MCP_STDIO_ENV_ALLOWLIST name, in a directory of their own; HTTP servers only
// at addresses the outbound guard allows; stored secrets never follow a connection to a new destination.
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MASKED_VALUE,
  type McpConnection,
  type McpConnectResponse,
  type McpTransport,
  type mcpConnectBody,
  type mcpConnectionBody,
} from '../../schemas/protocol/index.ts';
import { requireWorkspaceAdmin } from '../access.ts';
import { requireAgent } from '../agents/agents.ts';
import type { AppContext } from '../context.ts';
import { mcpConnections } from '../db/schema.ts';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { urlRefusal } from '../outbound/address-guard.ts';
import { outboundFetch } from '../outbound/outbound-request.ts';
import { childProcessesOf } from '../processes/child-processes.ts';
import { type CommandLine, parseAllowlist, requireAllowed } from './allowlist.ts';
import { resolveCommand } from './bundled-servers.ts';
import type { ConnectTests } from './connect-tests.ts';
import { folderRoot } from './folder-placeholder.ts';
import { openEnvironment, sealEnvironment } from './secret-box.ts';
import type { McpSession, SessionOptions, SessionTarget, ToolResult } from './session.ts';
import { declaredVariables } from './templates.ts';
import { parseNameList, requireAllowedVariables } from './variable-policy.ts';
import {
  connectionWorkdir,
  removeConnectionFiles,
  serverSetVariables,
  throwawayWorkdir,
  type Workdir,
} from './workdirs.ts';

/** The MCP SDK loads with the first session this server opens (a test, a tool call), not at its start. */
async function openSession(target: SessionTarget, options: SessionOptions): Promise<McpSession> {
  const session = await import('./session.ts');
  return session.openSession(target, options);
}

export type McpConnectionRow = typeof mcpConnections.$inferSelect;
type ConnectionBody = z.infer<typeof mcpConnectionBody>;
type ConnectBody = z.infer<typeof mcpConnectBody>;
type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets' | 'log'>;

const toWire = (row: McpConnectionRow): McpConnection => ({
  id: row.id,
  agentId: row.agentId,
  name: row.name,
  transport: row.transport,
  environmentVariables: Object.fromEntries(row.environmentNames.map((n) => [n, MASKED_VALUE] as const)),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * The operator's rules for a transport and its variable names, as a 400 that says what is wrong: the whole
 * command line allowlisted (folders inside the root) and only declared names; an address the guard allows.
 * Returns the stdio command line to run (folders resolved).
 */
function checkTransport(ctx: Ctx, transport: McpTransport, names: string[]): CommandLine | null {
  if (transport.type === 'http') {
    const refusal = urlRefusal(new URL(transport.url), ctx.config.MCP_HTTP_ALLOW_PRIVATE);
    if (refusal) throw badRequest(refusal);
    return null;
  }
  const line = requireAllowed(
    parseAllowlist(ctx.config.MCP_STDIO_ALLOWLIST),
    folderRoot(ctx.config),
    transport,
  );
  requireAllowedVariables(
    names,
    declaredVariables(transport),
    parseNameList(ctx.config.MCP_STDIO_ENV_ALLOWLIST),
  );
  return line;
}

/**
 * Where a connection sends its variables: an HTTP origin or a stdio command line. Stored values are used
 * only while it stays the same, so re-pointing a connection cannot carry its secrets to a new host.
 */
function destination(transport: McpTransport): string {
  return transport.type === 'http'
    ? `http ${new URL(transport.url).origin}`
    : `stdio ${JSON.stringify([transport.command, ...transport.args])}`;
}

/** A masked value stands for a stored one; where none may be used, the admin must type the value. */
function requireNoMaskedValues(given: Record<string, string>, moved: boolean): void {
  const masked = Object.keys(given).filter((name) => given[name] === MASKED_VALUE);
  if (masked.length === 0) return;
  const names = masked.join(', ');
  throw badRequest(
    moved
      ? `This connection now points somewhere new, so its stored variables are not sent there: enter ${names} again`
      : `There is no stored value for ${names}: enter the value`,
  );
}

/** Stored values kept for this request: all of them for the same destination, none for a new one. */
function keptVariables(
  row: McpConnectionRow,
  stored: Record<string, string>,
  next: McpTransport,
  given: Record<string, string>,
): Record<string, string> {
  if (destination(row.transport) === destination(next)) return stored;
  requireNoMaskedValues(given, true);
  return {};
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
  requireNoMaskedValues(body.environmentVariables, false);
  const variables = mergeVariables({}, body.environmentVariables);
  checkTransport(ctx, body.transport, Object.keys(variables));
  const [existing] = await ctx.db
    .select({ n: count() })
    .from(mcpConnections)
    .where(and(eq(mcpConnections.institutionId, institutionId), eq(mcpConnections.agentId, agentId)));
  const most = ctx.config.MCP_CONNECTIONS_PER_AGENT;
  if ((existing?.n ?? 0) >= most)
    throw badRequest(
      `This agent already has ${most} MCP connections, the most this server allows (MCP_CONNECTIONS_PER_AGENT); remove one first`,
    );
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
  const kept = keptVariables(
    existing,
    storedVariables(ctx, existing),
    body.transport,
    body.environmentVariables,
  );
  const variables = mergeVariables(kept, body.environmentVariables);
  checkTransport(ctx, body.transport, Object.keys(variables));
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
  removeConnectionFiles(ctx.config.dataDir, institutionId, existing.id);
  return toWire(existing);
}

const sessionOptions = (ctx: Ctx) => ({
  connectTimeoutMs: ctx.config.MCP_CONNECT_TIMEOUT_MS,
  toolTimeoutMs: ctx.config.MCP_TOOL_TIMEOUT_MS,
  log: ctx.log,
});

/**
 * A stdio child gets PATH and HOME of the server (to find and run its program) and nothing else of the
 * server's environment (its database URL, API keys); then the connection's own variables, which cannot
 * replace those two (variable-policy), then what the server sets itself (the Memory server's file).
 */
function childEnvironment(variables: Record<string, string>, own: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...variables, ...own };
}

/** `${NAME}` in HTTP headers is replaced by the variable, so tokens can be kept encrypted like the rest. */
function expandHeaders(headers: Record<string, string>, variables: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [
      k,
      v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n: string) => variables[n] ?? ''),
    ]),
  );
}

/** What openSession connects to, after the operator's rules (400 when they refuse it). */
function sessionTarget(
  ctx: Ctx,
  institutionId: string,
  transport: McpTransport,
  variables: Record<string, string>,
  workdir: Workdir,
): SessionTarget {
  const line = checkTransport(ctx, transport, Object.keys(variables));
  if (transport.type === 'http')
    return {
      type: 'http',
      url: new URL(transport.url),
      headers: expandHeaders(transport.headers, variables),
      fetch: outboundFetch({ allowPrivate: ctx.config.MCP_HTTP_ALLOW_PRIVATE }),
    };
  if (!line) throw new Error('a stdio transport has a command line');
  const run = resolveCommand(line.command, line.args);
  const env = childEnvironment(variables, serverSetVariables(transport, workdir));
  return {
    type: 'stdio',
    name: transport.command,
    start: () => childProcessesOf(ctx.config).start(institutionId, { ...run, env, cwd: workdir.dir }),
  };
}

const maskValues = (text: string, variables: Record<string, string>) =>
  Object.values(variables)
    .filter((v) => v.length >= 4)
    .reduce((masked, value) => masked.split(value).join(MASKED_VALUE), text);

/**
 * "Test connection": connects, lists the tools and closes, saving nothing, in a throwaway directory;
 * failures come back as {error}, rules refused as a 400, too many tests at once as a 429.
 */
export async function testConnection(
  ctx: Ctx,
  tests: ConnectTests,
  userId: string,
  institutionId: string,
  body: ConnectBody,
): Promise<McpConnectResponse> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const row = body.id ? await findRow(ctx, institutionId, body.id) : null;
  const stored = row
    ? keptVariables(row, storedVariables(ctx, row), body.transport, body.environmentVariables)
    : {};
  if (!row) requireNoMaskedValues(body.environmentVariables, false);
  // Stored values fill in masked fields and names the form left out (it may show only new ones).
  const variables = { ...stored, ...mergeVariables(stored, body.environmentVariables) };
  checkTransport(ctx, body.transport, Object.keys(variables));
  return tests.run(institutionId, async () => {
    const workdir = throwawayWorkdir(ctx.config.dataDir, institutionId);
    let session: McpSession | undefined;
    try {
      const target = sessionTarget(ctx, institutionId, body.transport, variables, workdir);
      session = await openSession(target, sessionOptions(ctx));
      return { tools: await session.listTools() };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      return { error: maskValues(error instanceof Error ? error.message : String(error), variables) };
    } finally {
      await session?.close();
      workdir.release();
    }
  });
}

/**
 * Opens a stored connection for the length of `use` (one agent run may call several tools), then closes it.
 * The operator's rules are checked again: they may have been narrowed since the connection was saved.
 */
export async function withMcpSession<T>(
  ctx: Ctx,
  connection: McpConnectionRow,
  use: (session: McpSession) => Promise<T>,
): Promise<T> {
  const workdir = connectionWorkdir(ctx.config.dataDir, connection.institutionId, connection.id);
  const target = sessionTarget(
    ctx,
    connection.institutionId,
    connection.transport,
    storedVariables(ctx, connection),
    workdir,
  );
  const session = await openSession(target, sessionOptions(ctx));
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
