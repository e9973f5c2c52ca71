// The audit of agent runs and the daily token caps: every run, however it ends, leaves one agent_runs row;
// the caps count the tokens of today's rows (UTC day) before a run starts. The operator's cap
// (AGENT_DAILY_TOKEN_CAP) holds for every workspace, and a workspace's own cap can only be lower. Admins
// read the rows back as a per-agent usage table and as each agent's recent runs.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gte, max, sql } from 'drizzle-orm';
import type {
  AgentRun,
  AgentRunOutcome,
  AgentUsageResponse,
  AgentUsageRow,
} from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { agentRuns, institutions } from '../db/schema.ts';
import { listAgents } from './agents.ts';

export type { AgentRunOutcome };

export interface RunRecord {
  institutionId: string;
  agentId: string;
  askerMemberId: string;
  channelId: string;
  answerMessageId: string | null;
  model: string | null;
  tokensIn: number;
  tokensOut: number;
  /** Names of the tools called, in order (a tool called twice appears twice). */
  toolCalls: string[];
  durationMs: number;
  outcome: AgentRunOutcome;
  error: string | null;
}

export async function recordRun(db: Db, run: RunRecord): Promise<string> {
  const id = randomUUID();
  await db.insert(agentRuns).values({
    id,
    ...run,
    tokensIn: Math.max(0, Math.round(run.tokensIn)),
    tokensOut: Math.max(0, Math.round(run.tokensOut)),
    durationMs: Math.max(0, Math.round(run.durationMs)),
  });
  return id;
}

/** Midnight UTC of the given moment's day. */
export function startOfUtcDay(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export async function tokensUsedToday(
  db: Db,
  institutionId: string,
  now: Date = new Date(),
): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${agentRuns.tokensIn} + ${agentRuns.tokensOut}), 0)` })
    .from(agentRuns)
    .where(and(eq(agentRuns.institutionId, institutionId), gte(agentRuns.createdAt, startOfUtcDay(now))));
  return Number(row?.total ?? 0);
}

export const dailyCapMessage = (cap: number) =>
  `This workspace has used its daily allowance of ${cap.toLocaleString('en-US')} agent tokens. Agents answer again after midnight UTC, or an admin can raise the limit.`;

export const serverDailyCapMessage = (cap: number) =>
  `This workspace has used the ${cap.toLocaleString('en-US')} agent tokens this server allows each workspace per day. Agents answer again after midnight UTC.`;

/** AGENT_DAILY_TOKEN_CAP as a cap: 0 means the operator set none. */
export const serverDailyTokenCap = (configured: number): number | null =>
  configured > 0 ? configured : null;

/**
 * The message refusing a new run when a daily token cap is spent (the workspace's own, or the server's
 * ceiling when that is lower); null when it may run.
 */
export async function dailyCapRefusal(
  db: Db,
  institutionId: string,
  serverCap: number | null,
): Promise<string | null> {
  const ownCap = await dailyTokenCap(db, institutionId);
  if (ownCap === null && serverCap === null) return null;
  const used = await tokensUsedToday(db, institutionId);
  // A workspace cap above the server's (set before the operator lowered it) is not honoured.
  if (ownCap !== null && (serverCap === null || ownCap <= serverCap))
    return used >= ownCap ? dailyCapMessage(ownCap) : null;
  return serverCap !== null && used >= serverCap ? serverDailyCapMessage(serverCap) : null;
}

/** Per-agent totals over the runs since `since`; agents of the workspace with no runs get zeros. */
export async function agentUsage(
  db: Db,
  institutionId: string,
  days: number,
  serverCap: number | null,
  now: Date = new Date(),
): Promise<AgentUsageResponse> {
  const since = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const totals = await db
    .select({
      agentId: agentRuns.agentId,
      runs: sql<string>`count(*)`,
      failedRuns: sql<string>`count(*) filter (where ${agentRuns.outcome} = 'failed')`,
      tokensIn: sql<string>`coalesce(sum(${agentRuns.tokensIn}), 0)`,
      tokensOut: sql<string>`coalesce(sum(${agentRuns.tokensOut}), 0)`,
      toolCalls: sql<string>`coalesce(sum(jsonb_array_length(${agentRuns.toolCalls})), 0)`,
      lastRunAt: max(agentRuns.createdAt),
    })
    .from(agentRuns)
    .where(and(eq(agentRuns.institutionId, institutionId), gte(agentRuns.createdAt, since)))
    .groupBy(agentRuns.agentId);
  const byAgent = new Map(totals.map((row) => [row.agentId, row]));
  // Runs of agents deleted since are left out: the table lists the workspace's agents.
  const rows: AgentUsageRow[] = (await listAgents(db, institutionId)).map(({ agent, name }) => {
    const row = byAgent.get(agent.memberId);
    return {
      agentId: agent.memberId,
      name,
      runs: Number(row?.runs ?? 0),
      failedRuns: Number(row?.failedRuns ?? 0),
      tokensIn: Number(row?.tokensIn ?? 0),
      tokensOut: Number(row?.tokensOut ?? 0),
      toolCalls: Number(row?.toolCalls ?? 0),
      lastRunAt: row?.lastRunAt ? new Date(row.lastRunAt).toISOString() : null,
    };
  });
  return {
    since: since.toISOString(),
    rows,
    tokensToday: await tokensUsedToday(db, institutionId, now),
    dailyTokenCap: await dailyTokenCap(db, institutionId),
    serverDailyTokenCap: serverCap,
  };
}

/** An agent's most recent runs, newest first (the audit). */
export async function listRuns(
  db: Db,
  institutionId: string,
  agentId: string,
  limit: number,
): Promise<AgentRun[]> {
  const rows = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.institutionId, institutionId), eq(agentRuns.agentId, agentId)))
    .orderBy(desc(agentRuns.createdAt), desc(agentRuns.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    agentId: row.agentId,
    askerMemberId: row.askerMemberId,
    channelId: row.channelId,
    answerMessageId: row.answerMessageId,
    model: row.model,
    tokensIn: row.tokensIn,
    tokensOut: row.tokensOut,
    toolCalls: row.toolCalls,
    durationMs: row.durationMs,
    outcome: row.outcome,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The workspace's daily token cap; null when there is none. */
export async function dailyTokenCap(db: Db, institutionId: string): Promise<number | null> {
  const [row] = await db
    .select({ cap: institutions.agentDailyTokenCap })
    .from(institutions)
    .where(eq(institutions.id, institutionId))
    .limit(1);
  return row?.cap ?? null;
}

export async function setDailyTokenCap(db: Db, institutionId: string, cap: number | null): Promise<void> {
  await db.update(institutions).set({ agentDailyTokenCap: cap }).where(eq(institutions.id, institutionId));
}
