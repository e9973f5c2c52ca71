// Agents in the workspace settings: REST calls and hooks for agents, their knowledge sources and MCP
// connections, MCP templates and the connect test, usage, recent runs and the daily token cap (spec §7).
// Reads go through remote-query.ts (held in memory, not in the store); every change refetches what it
// touched. Actions reject with ApiError carrying the server's message.
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
} from '../../schemas/protocol.ts';
import { refreshMembers } from './actions.ts';
import { requireClient } from './client.ts';
import { invalidateRemote, type RemoteState, setRemote, useRemoteQuery } from './remote-query.ts';
import { institutionPath } from './workspace-store.ts';

export type AgentsResponse = z.infer<typeof agentsResponse>;
export type CreateAgentInput = z.input<typeof createAgentBody>;
export type UpdateAgentInput = z.input<typeof updateAgentBody>;
export type { RemoteState } from './remote-query.ts';

const agentsPath = (institutionId: string) => `${institutionPath(institutionId)}/agents`;
const agentPath = (institutionId: string, agentId: string) =>
  `${agentsPath(institutionId)}/${encodeURIComponent(agentId)}`;

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
    const { http } = await requireClient();
    return http.get<AgentsResponse>(agentsPath(institutionId));
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
    const { http } = await requireClient();
    const res = await http.get<{ data: McpConnection[] }>(
      `${agentPath(institutionId, agentId)}/mcp-connections`,
    );
    return res.data;
  });
}

/** Ready-made connections, each with whether the operator's allowlist lets it start here. */
export function useMcpTemplates(institutionId: string): RemoteState<McpTemplate[]> {
  return useRemoteQuery(keys.templates(institutionId), async () => {
    const { http } = await requireClient();
    const res = await http.get<{ data: McpTemplate[] }>(`${institutionPath(institutionId)}/mcp-templates`);
    return res.data;
  });
}

/** Runs, failures, tokens and tool calls per agent over the last `days`, plus today's tokens and the cap. */
export function useAgentUsage(institutionId: string, days = 30): RemoteState<AgentUsageResponse> {
  return useRemoteQuery(keys.usage(institutionId, days), async () => {
    const { http } = await requireClient();
    return http.get<AgentUsageResponse>(`${agentsPath(institutionId)}/usage?days=${days}`);
  });
}

/** An agent's most recent runs as audited, newest first. */
export function useAgentRuns(institutionId: string, agentId: string, limit = 25): RemoteState<AgentRun[]> {
  return useRemoteQuery(keys.runs(institutionId, agentId), async () => {
    const { http } = await requireClient();
    const res = await http.get<{ runs: AgentRun[] }>(
      `${agentPath(institutionId, agentId)}/runs?limit=${limit}`,
    );
    return res.runs;
  });
}

// ───────────────────────────── agents ─────────────────────────────
/** Creates an agent (admins); it joins the workspace as a member, so the member list is refreshed too. */
export async function createAgent(institutionId: string, input: CreateAgentInput): Promise<Agent> {
  const { http } = await requireClient();
  const { agent } = await http.post<{ agent: Agent }>(agentsPath(institutionId), input);
  await afterAgentChange(institutionId);
  return agent;
}

export async function updateAgent(
  institutionId: string,
  agentId: string,
  patch: UpdateAgentInput,
): Promise<Agent> {
  const { http } = await requireClient();
  const { agent } = await http.put<{ agent: Agent }>(agentPath(institutionId, agentId), patch);
  setRemote<AgentsResponse>(keys.list(institutionId), (current) =>
    current ? { ...current, agents: current.agents.map((a) => (a.id === agent.id ? agent : a)) } : current,
  );
  await afterAgentChange(institutionId);
  return agent;
}

/** Removes the agent with its knowledge and connections; its past answers stay in the channels. */
export async function deleteAgent(institutionId: string, agentId: string): Promise<void> {
  const { http } = await requireClient();
  await http.del(agentPath(institutionId, agentId));
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
  const { http } = await requireClient();
  const res = await http.get<{ knowledgeSources: KnowledgeSource[] }>(
    `${agentPath(institutionId, agentId)}/knowledge-sources`,
  );
  return [...res.knowledgeSources].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

async function postSource(institutionId: string, agentId: string, body: unknown): Promise<KnowledgeSource> {
  const { http } = await requireClient();
  try {
    const { knowledgeSource } = await http.post<{ knowledgeSource: KnowledgeSource }>(
      `${agentPath(institutionId, agentId)}/knowledge-sources`,
      body,
    );
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
  const { http } = await requireClient();
  const query = new URLSearchParams({ fileName: file.name });
  try {
    const { knowledgeSource } = await http.postBlob<{ knowledgeSource: KnowledgeSource }>(
      `${agentPath(institutionId, agentId)}/knowledge-sources/upload?${query}`,
      file,
      file.type || guessType(file.name),
    );
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
  const { http } = await requireClient();
  await http.del(`${agentPath(institutionId, agentId)}/knowledge-sources/${encodeURIComponent(sourceId)}`);
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
  const { http } = await requireClient();
  const base = `${agentPath(institutionId, agentId)}/mcp-connections`;
  const { connection } = connectionId
    ? await http.put<{ connection: McpConnection }>(`${base}/${encodeURIComponent(connectionId)}`, body)
    : await http.post<{ connection: McpConnection }>(base, body);
  await invalidateRemote(keys.connections(institutionId, agentId));
  return connection;
}

export async function deleteMcpConnection(
  institutionId: string,
  agentId: string,
  connectionId: string,
): Promise<void> {
  const { http } = await requireClient();
  await http.del(`${agentPath(institutionId, agentId)}/mcp-connections/${encodeURIComponent(connectionId)}`);
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
  const { http } = await requireClient();
  return http.post<McpConnectResponse>(`${institutionPath(institutionId)}/mcp-connections/connect`, input);
}

// ───────────────────────────── usage ─────────────────────────────
/** Sets the workspace's daily token cap for agent runs; null removes it. */
export async function setDailyTokenCap(institutionId: string, dailyTokenCap: number | null): Promise<void> {
  const { http } = await requireClient();
  await http.put(`${institutionPath(institutionId)}/agent-settings`, { dailyTokenCap });
  await invalidateRemote(`${keys.all(institutionId)}:usage`);
}
