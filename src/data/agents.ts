// Agents (spec §7): the workspace settings' REST calls and hooks for agents, their knowledge sources and
// MCP connections, MCP templates and the connect test, usage, recent runs and the daily token cap; and the
// asker's decision on a tool call that waits for approval. Reads go through remote-query.ts (held in
// memory, not in the store); every change refetches what it touched. Actions reject with ApiError
// carrying the server's message.

import type { z } from 'zod';
import type {
  Agent,
  AgentRun,
  AgentUsageResponse,
  agentsResponse,
  createAgentBody,
  KnowledgeSource,
  McpConnection,
  McpConnectionBody,
  McpConnectResponse,
  McpTemplate,
  McpTransport,
  updateAgentBody,
} from '../../schemas/protocol/index.ts';
import { applyServerMessage } from '../store/messages.ts';
import { requireClient, requireConnection } from './client.ts';
import { refreshMembers } from './members.ts';
import { invalidateRemote, type RemoteState, setRemote, useRemoteQuery } from './remote-query.ts';

type AgentsResponse = z.infer<typeof agentsResponse>;
export type CreateAgentInput = z.input<typeof createAgentBody>;
type UpdateAgentInput = z.input<typeof updateAgentBody>;

// Keys: everything about one workspace's agents starts with `agents:{id}`, so one prefix refreshes all.
const keys = {
  all: (i: string) => `agents:${i}`,
  list: (i: string) => `agents:${i}:list`,
  sources: (i: string, a: string) => `agents:${i}:sources:${a}`,
  connections: (i: string, a: string) => `agents:${i}:connections:${a}`,
  templates: (i: string) => `agents:${i}:templates`,
  usage: (i: string, days: number) => `agents:${i}:usage:${days}`,
  runs: (i: string, a: string) => `agents:${i}:runs:${a}`,
};

/** How often a list with a knowledge source still processing asks again: quick enough to feel live. */
const PROCESSING_POLL_MS = 1_500;

// ───────────────────────────── hooks ─────────────────────────────
/** The workspace's agents and the model they use unless they override it (null: none configured). */
export function useAgents(institutionId: string): RemoteState<AgentsResponse> {
  return useRemoteQuery(keys.list(institutionId), async () => {
    const { http } = await requireConnection();
    return http.call('agents', { params: { id: institutionId } });
  });
}

/** An agent's knowledge sources, newest first; asks again while any is still processing. */
export function useKnowledgeSources(institutionId: string, agentId: string): RemoteState<KnowledgeSource[]> {
  return useRemoteQuery(
    keys.sources(institutionId, agentId),
    () => fetchSources(institutionId, agentId),
    (sources) => (sources.some((s) => s.status === 'processing') ? PROCESSING_POLL_MS : null),
  );
}

/** An agent's MCP connections, variables masked (admins only: others get 403). */
export function useMcpConnections(institutionId: string, agentId: string): RemoteState<McpConnection[]> {
  return useRemoteQuery(keys.connections(institutionId, agentId), async () => {
    const { http } = await requireConnection();
    return (await http.call('mcpConnections', { params: { id: institutionId, agentId } })).data;
  });
}

/** Ready-made connections, each with whether the operator's allowlist lets it start here. */
export function useMcpTemplates(institutionId: string): RemoteState<McpTemplate[]> {
  return useRemoteQuery(keys.templates(institutionId), async () => {
    const { http } = await requireConnection();
    return (await http.call('mcpTemplates', { params: { id: institutionId } })).data;
  });
}

/** Runs, failures, tokens and tool calls per agent over the last `days`, plus today's tokens and the cap. */
export function useAgentUsage(institutionId: string, days = 30): RemoteState<AgentUsageResponse> {
  return useRemoteQuery(keys.usage(institutionId, days), async () => {
    const { http } = await requireConnection();
    return http.call('agentUsage', { params: { id: institutionId }, query: { days: String(days) } });
  });
}

/** An agent's most recent runs as audited, newest first. */
export function useAgentRuns(institutionId: string, agentId: string, limit = 25): RemoteState<AgentRun[]> {
  return useRemoteQuery(keys.runs(institutionId, agentId), async () => {
    const { http } = await requireConnection();
    const res = await http.call('agentRuns', {
      params: { id: institutionId, agentId },
      query: { limit: String(limit) },
    });
    return res.runs;
  });
}

// ───────────────────────────── agents ─────────────────────────────
/** Creates an agent (admins); it joins the workspace as a member, so the member list is refreshed too. */
export async function createAgent(institutionId: string, input: CreateAgentInput): Promise<Agent> {
  const { http } = await requireConnection();
  const { agent } = await http.call('createAgent', { params: { id: institutionId }, body: input });
  await afterAgentChange(institutionId);
  return agent;
}

export async function updateAgent(
  institutionId: string,
  agentId: string,
  patch: UpdateAgentInput,
): Promise<Agent> {
  const { http } = await requireConnection();
  const { agent } = await http.call('updateAgent', { params: { id: institutionId, agentId }, body: patch });
  setRemote<AgentsResponse>(keys.list(institutionId), (current) =>
    current ? { ...current, agents: current.agents.map((a) => (a.id === agent.id ? agent : a)) } : current,
  );
  await afterAgentChange(institutionId);
  return agent;
}

/** Removes the agent with its knowledge and connections; its past answers stay in the channels. */
export async function deleteAgent(institutionId: string, agentId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('deleteAgent', { params: { id: institutionId, agentId } });
  setRemote<AgentsResponse>(keys.list(institutionId), (current) =>
    current ? { ...current, agents: current.agents.filter((a) => a.id !== agentId) } : current,
  );
  await afterAgentChange(institutionId);
}

async function afterAgentChange(institutionId: string): Promise<void> {
  await Promise.all([
    invalidateRemote(keys.list(institutionId)),
    invalidateRemote(keys.usage(institutionId, 30)),
    // Name and picture live on the agent's member record (mentions, messages, directory).
    refreshMembers(institutionId).catch(() => undefined),
  ]);
}

// ───────────────────────────── knowledge sources ─────────────────────────────
async function fetchSources(institutionId: string, agentId: string): Promise<KnowledgeSource[]> {
  const { http } = await requireConnection();
  const res = await http.call('knowledgeSources', { params: { id: institutionId, agentId } });
  return [...res.knowledgeSources].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

async function postSource(institutionId: string, agentId: string, body: unknown): Promise<KnowledgeSource> {
  const { http } = await requireConnection();
  try {
    const { knowledgeSource } = await http.call('addKnowledgeSource', {
      params: { id: institutionId, agentId },
      body,
    });
    return knowledgeSource;
  } finally {
    await invalidateRemote(keys.sources(institutionId, agentId));
  }
}

export async function addTextKnowledge(
  institutionId: string,
  agentId: string,
  input: { title: string; text: string },
): Promise<KnowledgeSource> {
  return postSource(institutionId, agentId, { type: 'text', ...input });
}

/** A web page the server fetches and reads. */
export async function addUrlKnowledge(
  institutionId: string,
  agentId: string,
  input: { url: string; title?: string },
): Promise<KnowledgeSource> {
  return postSource(institutionId, agentId, { type: 'url', url: input.url, title: input.title || undefined });
}

/**
 * A document (PDF, Word, Markdown, text, HTML) sent straight to the agent: the server reads its text from
 * the request and keeps no file, so it never shows up in a channel's Files list.
 */
export async function addFileKnowledge(
  institutionId: string,
  agentId: string,
  file: File,
): Promise<KnowledgeSource> {
  const { http } = await requireConnection();
  try {
    const { knowledgeSource } = await http.call('uploadKnowledgeSource', {
      params: { id: institutionId, agentId },
      query: { fileName: file.name },
      bytes: { body: file, contentType: file.type || guessType(file.name) },
    });
    return knowledgeSource;
  } finally {
    await invalidateRemote(keys.sources(institutionId, agentId));
  }
}

/** Browsers leave `type` empty for Markdown and some others; the server reads by name and type. */
function guessType(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    md: 'text/markdown',
    markdown: 'text/markdown',
    txt: 'text/plain',
    html: 'text/html',
    htm: 'text/html',
    pdf: 'application/pdf',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  };
  return types[ext] ?? 'application/octet-stream';
}

export async function deleteKnowledgeSource(
  institutionId: string,
  agentId: string,
  sourceId: string,
): Promise<void> {
  const { http } = await requireConnection();
  await http.call('deleteKnowledgeSource', { params: { id: institutionId, agentId, sourceId } });
  setRemote<KnowledgeSource[]>(keys.sources(institutionId, agentId), (current) =>
    current?.filter((s) => s.id !== sourceId),
  );
  await invalidateRemote(keys.sources(institutionId, agentId));
}

// ───────────────────────────── MCP connections ─────────────────────────────
/** Creates (no id) or replaces a connection; a variable left as MASKED_VALUE keeps its stored value. */
export async function saveMcpConnection(
  institutionId: string,
  agentId: string,
  body: McpConnectionBody,
  connectionId?: string,
): Promise<McpConnection> {
  const { http } = await requireConnection();
  const { connection } = connectionId
    ? await http.call('updateMcpConnection', {
        params: { id: institutionId, agentId, connId: connectionId },
        body,
      })
    : await http.call('createMcpConnection', { params: { id: institutionId, agentId }, body });
  await invalidateRemote(keys.connections(institutionId, agentId));
  return connection;
}

export async function deleteMcpConnection(
  institutionId: string,
  agentId: string,
  connectionId: string,
): Promise<void> {
  const { http } = await requireConnection();
  await http.call('deleteMcpConnection', { params: { id: institutionId, agentId, connId: connectionId } });
  setRemote<McpConnection[]>(keys.connections(institutionId, agentId), (current) =>
    current?.filter((c) => c.id !== connectionId),
  );
  await invalidateRemote(keys.connections(institutionId, agentId));
}

/**
 * Connects, lists the tools and disconnects, saving nothing. `{ error }` is the connection's own failure
 * (the server could not start or reach it); a refusal of the request itself rejects with ApiError.
 */
export async function testMcpConnection(
  institutionId: string,
  input: { transport: McpTransport; environmentVariables: Record<string, string>; id?: string },
): Promise<McpConnectResponse> {
  const { http } = await requireConnection();
  return http.call('testMcpConnection', { params: { id: institutionId }, body: input });
}

// ───────────────────────────── usage ─────────────────────────────
/** Sets the workspace's daily token cap for agent runs; null removes it. */
export async function setDailyTokenCap(institutionId: string, dailyTokenCap: number | null): Promise<void> {
  const { http } = await requireConnection();
  await http.call('updateAgentSettings', { params: { id: institutionId }, body: { dailyTokenCap } });
  await invalidateRemote(`${keys.all(institutionId)}:usage`);
}

// ───────────────────────────── tool calls waiting for approval ─────────────────────────────
// Online only: the run is waiting on the server now, so a queued decision would be stale.
interface ToolCallDecision {
  institutionId: string;
  channelId: string;
  /** The answer message's server id. */
  messageId: string;
  toolCallId: string;
  approve: boolean;
}

/** Rejects with ApiError carrying the server's message (e.g. someone else asked, or already decided). */
export async function decideToolCall(decision: ToolCallDecision): Promise<void> {
  const { http, db } = await requireClient();
  const { institutionId, channelId, messageId, toolCallId, approve } = decision;
  const { message } = await http.call('decideToolCall', {
    params: { id: institutionId, channelId, messageId, toolCallId },
    body: { approve },
  });
  // The card changes through newEditMessage anyway; the answer's copy shows it sooner.
  await applyServerMessage(db, message);
}
