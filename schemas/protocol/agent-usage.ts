// Agent usage, the audit of runs and the workspace's token cap.
import { z } from 'zod';
import { id, isoDate } from './primitives.ts';

// ───────────────────────────── REST: agent usage and audit ─────────────────────────────
export const agentRunOutcome = z.enum(['succeeded', 'failed', 'stopped', 'refused']);
export type AgentRunOutcome = z.infer<typeof agentRunOutcome>;
/** One run as audited: who asked which agent where, with what model, tokens and tools, and how it ended. */
export const agentRun = z.object({
  id,
  agentId: id,
  askerMemberId: id,
  channelId: id,
  answerMessageId: id.nullable(),
  model: z.string().nullable(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  toolCalls: z.array(z.string()),
  durationMs: z.number().int().nonnegative(),
  outcome: agentRunOutcome,
  /** Why it failed, stopped or was refused. */
  error: z.string().nullable(),
  createdAt: isoDate,
});
export type AgentRun = z.infer<typeof agentRun>;
export const agentRunsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const agentRunsResponse = z.object({ runs: z.array(agentRun) });
export const agentUsageQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });
export const agentUsageRow = z.object({
  agentId: id,
  name: z.string(),
  runs: z.number().int().nonnegative(),
  failedRuns: z.number().int().nonnegative(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  lastRunAt: isoDate.nullable(),
});
export type AgentUsageRow = z.infer<typeof agentUsageRow>;
export const agentUsageResponse = z.object({
  since: isoDate,
  rows: z.array(agentUsageRow),
  /** Tokens (in + out) used by the workspace's runs since midnight UTC. */
  tokensToday: z.number().int().nonnegative(),
  dailyTokenCap: z.number().int().positive().nullable(),
  /** The operator's ceiling for every workspace (AGENT_DAILY_TOKEN_CAP); null: none. */
  serverDailyTokenCap: z.number().int().positive().nullable(),
});
export type AgentUsageResponse = z.infer<typeof agentUsageResponse>;
/** PUT /api/institutions/{id}/agent-settings (admins): null removes the cap. */
export const agentSettingsBody = z.object({
  dailyTokenCap: z.number().int().positive().max(1_000_000_000_000).nullable(),
});
export const agentSettingsResponse = agentSettingsBody.extend({
  /** The operator's ceiling (AGENT_DAILY_TOKEN_CAP): the workspace's cap may not exceed it; null: none. */
  serverDailyTokenCap: z.number().int().positive().nullable(),
});
