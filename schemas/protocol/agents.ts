// Agents and their knowledge sources.
import { z } from 'zod';
import { NAME_MAX } from './limits.ts';
import { message } from './messages.ts';
import { id, isoDate } from './primitives.ts';

// ───────────────────────────── REST: agents and their knowledge ─────────────────────────────
/** Longest text of one knowledge source (after extraction) and most sources per agent. */
export const KNOWLEDGE_SOURCE_MAX_CHARS = 500_000;
export const KNOWLEDGE_SOURCES_PER_AGENT = 50;
export const AGENT_INSTRUCTIONS_MAX = 10_000;
export const agentInvokableBy = z.enum(['everyone', 'channel_owners', 'nobody']);
export type AgentInvokableBy = z.infer<typeof agentInvokableBy>;
/** An agent; its id is its workspace member id (mentions of type 'agent' carry it). */
export const agent = z.object({
  id,
  institutionId: id,
  name: z.string(),
  profileImage: z.string().nullable(),
  instructions: z.string(),
  model: z.string().nullable(),
  invokableBy: agentInvokableBy,
  maxToolSteps: z.number().int(),
  /** Every tool call waits for the asker's approval, not only the ones their server marks destructive. */
  approveAllTools: z.boolean(),
  createdAt: isoDate,
});
export type Agent = z.infer<typeof agent>;
export const createAgentBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
  profileImage: z.string().max(2048).nullable().optional(),
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX).default(''),
  model: z.string().trim().min(1).max(200).nullable().optional(),
  invokableBy: agentInvokableBy.default('everyone'),
  maxToolSteps: z.number().int().min(1).max(50).default(8),
  approveAllTools: z.boolean().default(false),
});
export const updateAgentBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX).optional(),
  profileImage: z.string().max(2048).nullable().optional(),
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX).optional(),
  model: z.string().trim().min(1).max(200).nullable().optional(),
  invokableBy: agentInvokableBy.optional(),
  maxToolSteps: z.number().int().min(1).max(50).optional(),
  approveAllTools: z.boolean().optional(),
});
export const agentsResponse = z.object({
  agents: z.array(agent),
  /** The model agents use unless they override it ("provider:model"); null: none configured. */
  defaultModel: z.string().nullable(),
  /** The models an agent may name ("provider:model", the operator's AGENT_MODELS), the default first. */
  models: z.array(z.string()),
});
/** POST and PUT .../agents: the agent as stored. */
export const agentResponse = z.object({ agent });
/** DELETE .../agents/{agentId}. */
export const deletedAgentResponse = z.object({ agentId: id });
export const knowledgeSourceStatus = z.enum(['processing', 'ready', 'failed']);
export const knowledgeSource = z.object({
  id,
  agentId: id,
  type: z.enum(['text', 'file', 'url']),
  title: z.string(),
  status: knowledgeSourceStatus,
  /** Why ingestion failed (status 'failed'). */
  error: z.string().nullable(),
  /** Characters of extracted text. */
  size: z.number().int(),
  chunkCount: z.number().int(),
  createdAt: isoDate,
});
export type KnowledgeSource = z.infer<typeof knowledgeSource>;
export const createKnowledgeSourceBody = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    title: z.string().trim().min(1, 'Title cannot be empty').max(200),
    text: z.string().min(1, 'Text cannot be empty'),
  }),
  /** A file uploaded through the files feature (POST /api/files); its bytes are read by the server. */
  z.object({ type: z.literal('file'), fileId: id, title: z.string().trim().min(1).max(200).optional() }),
  z.object({
    type: z.literal('url'),
    url: z.string().max(2048, { abort: true }).url(),
    title: z.string().max(200).optional(),
  }),
]);
export const knowledgeSourcesResponse = z.object({ knowledgeSources: z.array(knowledgeSource) });
/** Adding a source (text, file, address or uploaded document): the source, usually still processing. */
export const knowledgeSourceResponse = z.object({ knowledgeSource });
/** DELETE .../knowledge-sources/{sourceId}. */
export const deletedKnowledgeSourceResponse = z.object({ sourceId: id });
/**
 * POST .../knowledge-sources/upload?fileName=…: the document's bytes as the request body (its type in
 * Content-Type), read into a source without being kept as a file.
 */
export const uploadKnowledgeSourceQuery = z.object({
  fileName: z.string().trim().min(1, 'Name the file').max(255),
  title: z.string().trim().min(1).max(200).optional(),
});

/** POST .../messages/{messageId}/tool-calls/{toolCallId}/decision: the asker approves or rejects a call. */
export const toolCallDecisionBody = z.object({ approve: z.boolean() });
/** The answer message with the call's new status. */
export const toolCallDecisionResponse = z.object({ message });
