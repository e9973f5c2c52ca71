// Opens one MCP client session over the connection's transport (the official SDK): stdio with a minimal
// environment, or streamable HTTP with a fallback to the older SSE transport. Every request has a time-out.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpTool, McpTransport } from '../../schemas/protocol.ts';
import { resolveCommand } from './bundled-servers.ts';

export interface SessionOptions {
  connectTimeoutMs: number;
  toolTimeoutMs: number;
}

export interface ToolResult {
  /** The tool's own content items (text, images, resources) as the server sent them. */
  content: unknown[];
  isError: boolean;
  structuredContent?: unknown;
}

/** A tool as a run offers it to a model: its input schema and whether its server marks it destructive. */
export interface McpToolDefinition {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  destructive: boolean;
}

export interface McpSession {
  listTools(): Promise<McpTool[]>;
  /** The same tools with their input schemas and annotations, for an agent run. */
  listToolDefinitions(): Promise<McpToolDefinition[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** A failure worth showing to the person who configured the connection (message only, no stack). */
export class McpConnectionError extends Error {
  override name = 'McpConnectionError';
}

const CLIENT_INFO = { name: 'lantern', version: '1.0.0' };
const STDERR_KEPT = 2_000;

/**
 * Only PATH and HOME are inherited from the server (its database URL, API keys and the like are not), then
 * the connection's own variables. (The SDK adds its own harmless defaults: LOGNAME, SHELL, TERM, USER.)
 */
export function childEnvironment(variables: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...variables };
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

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new McpConnectionError(`${what} timed out after ${Math.round(ms / 1000)} s`)),
      ms,
    );
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function connectWith(transport: Transport, options: SessionOptions): Promise<Client> {
  const client = new Client(CLIENT_INFO);
  try {
    await withDeadline(
      client.connect(transport, { timeout: options.connectTimeoutMs }),
      options.connectTimeoutMs,
      'Connecting',
    );
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

async function openClient(
  transport: McpTransport,
  variables: Record<string, string>,
  options: SessionOptions,
): Promise<{ client: Client; stderr: () => string }> {
  if (transport.type === 'stdio') {
    const resolved = resolveCommand(transport.command, transport.args);
    const stdio = new StdioClientTransport({
      command: resolved.command,
      args: resolved.args,
      env: childEnvironment(variables),
      stderr: 'pipe',
    });
    // Kept (the tail only) so that a server that dies says why; a pipe must be read or the child blocks.
    let stderr = '';
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    try {
      return { client: await connectWith(stdio, options), stderr: () => stderr.trim() };
    } catch (error) {
      const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : '';
      throw new McpConnectionError(`Could not start "${transport.command}": ${messageOf(error)}${detail}`);
    }
  }
  const url = new URL(transport.url);
  const requestInit = { headers: expandHeaders(transport.headers, variables) };
  try {
    return {
      client: await connectWith(new StreamableHTTPClientTransport(url, { requestInit }), options),
      stderr: () => '',
    };
  } catch (streamableError) {
    // Servers from before streamable HTTP (protocol 2024-11-05) speak SSE at the same address.
    try {
      return {
        client: await connectWith(new SSEClientTransport(url, { requestInit }), options),
        stderr: () => '',
      };
    } catch {
      throw new McpConnectionError(`Could not connect to ${url.origin}: ${messageOf(streamableError)}`);
    }
  }
}

export async function openSession(
  transport: McpTransport,
  variables: Record<string, string>,
  options: SessionOptions,
): Promise<McpSession> {
  const { client, stderr } = await openClient(transport, variables, options);
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  const failure = (what: string, error: unknown) => {
    if (error instanceof McpConnectionError) return error;
    const detail = closed ? ' (the MCP server stopped)' : '';
    const tail = closed && stderr() ? `: ${stderr().split('\n').slice(-2).join(' ')}` : '';
    return new McpConnectionError(`${what} failed${detail}: ${messageOf(error)}${tail}`);
  };
  const listAll = async () => {
    try {
      const tools: Awaited<ReturnType<Client['listTools']>>['tools'] = [];
      let cursor: string | undefined;
      do {
        const page = await withDeadline(
          client.listTools(cursor ? { cursor } : {}, { timeout: options.connectTimeoutMs }),
          options.connectTimeoutMs,
          'Listing tools',
        );
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    } catch (error) {
      throw failure('Listing tools', error);
    }
  };
  return {
    async listTools() {
      return (await listAll()).map((t) =>
        t.description ? { name: t.name, description: t.description } : { name: t.name },
      );
    },
    async listToolDefinitions() {
      return (await listAll()).map((t) => ({
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        inputSchema: t.inputSchema as Record<string, unknown>,
        destructive: t.annotations?.destructiveHint === true,
      }));
    },
    async callTool(name, args) {
      try {
        const result = await withDeadline(
          client.callTool({ name, arguments: args }, undefined, { timeout: options.toolTimeoutMs }),
          options.toolTimeoutMs,
          `The tool "${name}"`,
        );
        return {
          content: Array.isArray(result.content) ? result.content : [],
          isError: result.isError === true,
          ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
        };
      } catch (error) {
        throw failure(`The tool "${name}"`, error);
      }
    },
    async close() {
      await client.close().catch(() => undefined);
    },
  };
}
