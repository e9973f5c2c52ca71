// Opens one MCP client session (the official SDK) over a stdio child started by the server's child-process
// registry, or over streamable HTTP with a fallback to the older SSE transport, both through the guarded
// outbound fetch. Every request has a time-out. What the server or the network said in detail (stderr,
// HTTP error bodies) goes to the operator's log; the caller gets a short reason without it.
import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from 'pino';
import type { McpTool } from '../../schemas/protocol/index.ts';
import { HttpError } from '../errors.ts';
import { RefusedAddress } from '../outbound/address-guard.ts';
import { ChildStdioTransport } from './stdio-transport.ts';

export interface SessionOptions {
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  /** The operator's log: stderr of children and detailed failures. */
  log: Logger;
}

/** What to connect to: a child to start (the registry applies caps), or an address with its headers. */
export type SessionTarget =
  | { type: 'stdio'; name: string; start: () => ChildProcess }
  | { type: 'http'; url: URL; headers: Record<string, string>; fetch: FetchLike };

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

/** A failure worth showing to the person who configured the connection (a short reason, no details). */
export class McpConnectionError extends Error {
  override name = 'McpConnectionError';
}

const CLIENT_INFO = { name: 'lantern', version: '1.0.0' };
/** The tail of a child's stderr kept for the log line written when it fails. */
const STDERR_KEPT = 4_000;

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

/** The error or one of its causes that is of this class. */
function findCause<T>(error: unknown, type: new (...args: never[]) => T): T | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof type) return e;
  return undefined;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host could not be found',
  EAI_AGAIN: 'the host could not be found',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host could not be reached',
};

/** A reason in a few words that repeats nothing the other side sent (bodies can hold secrets or pages). */
function shortReason(error: unknown): string {
  const refused = findCause(error, RefusedAddress);
  if (refused) return refused.message;
  const own = findCause(error, McpConnectionError);
  if (own) return own.message;
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && code >= 100 && code < 600) return `it answered HTTP ${code}`;
    if (typeof code === 'string' && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
  }
  return 'it did not answer as an MCP server';
}

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
  target: SessionTarget,
  options: SessionOptions,
): Promise<{ client: Client; stderr: () => string; name: string }> {
  if (target.type === 'stdio') {
    let stderr = '';
    const transport = new ChildStdioTransport(target.start, (text) => {
      stderr = (stderr + text).slice(-STDERR_KEPT);
    });
    try {
      return {
        client: await connectWith(transport, options),
        stderr: () => stderr.trim(),
        name: target.name,
      };
    } catch (error) {
      // A cap reached is the caller's answer (429) as it is.
      if (error instanceof HttpError) throw error;
      options.log.warn(
        { command: target.name, err: messageOf(error), stderr: stderr.trim() },
        'An MCP server could not be started',
      );
      const reason = findCause(error, McpConnectionError)
        ? messageOf(error)
        : (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'the command was not found'
          : 'it stopped before answering (details are in the server log)';
      throw new McpConnectionError(`Could not start "${target.name}": ${reason}`);
    }
  }
  const { url, fetch } = target;
  const requestInit = { headers: target.headers };
  const name = url.origin;
  try {
    return {
      client: await connectWith(new StreamableHTTPClientTransport(url, { requestInit, fetch }), options),
      stderr: () => '',
      name,
    };
  } catch (streamableError) {
    // Servers from before streamable HTTP (protocol 2024-11-05) speak SSE at the same address (through the
    // same guarded fetch, so a refused address stays refused).
    try {
      return {
        client: await connectWith(new SSEClientTransport(url, { requestInit, fetch }), options),
        stderr: () => '',
        name,
      };
    } catch (sseError) {
      options.log.warn(
        { origin: name, streamable: messageOf(streamableError), sse: messageOf(sseError) },
        'An MCP server could not be reached',
      );
      throw new McpConnectionError(`Could not connect to ${name}: ${shortReason(streamableError)}`);
    }
  }
}

export async function openSession(target: SessionTarget, options: SessionOptions): Promise<McpSession> {
  const { client, stderr, name: serverName } = await openClient(target, options);
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  const failure = (what: string, error: unknown) => {
    if (error instanceof McpConnectionError) return error;
    options.log.warn(
      { server: serverName, err: messageOf(error), ...(closed ? { stderr: stderr() } : {}) },
      `${what} failed on an MCP server`,
    );
    if (closed) return new McpConnectionError(`${what} failed (the MCP server stopped)`);
    // A JSON-RPC error is the server's own answer, not a network detail: its message is kept.
    const code = (error as { code?: unknown }).code;
    const detail = typeof code === 'number' && code < 0 ? messageOf(error) : shortReason(error);
    return new McpConnectionError(`${what} failed: ${detail}`);
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
