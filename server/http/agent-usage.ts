// REST routes for agent usage and audit, for workspace owners and admins only: the per-agent usage table,
// an agent's recent runs, and the workspace's daily token cap.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { agentRunsQuery, agentSettingsBody, agentUsageQuery, id } from '../../schemas/protocol/index.ts';
import { requireWorkspaceAdmin } from '../access.ts';
import { requireAgent } from '../agents/agents.ts';
import {
  agentUsage,
  dailyTokenCap,
  listRuns,
  serverDailyTokenCap,
  setDailyTokenCap,
} from '../agents/usage.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { getAuth } from './auth-hook.ts';

const workspaceParams = z.object({ id });
const agentParams = z.object({ id, agentId: id });

export function registerAgentUsageRoutes(app: FastifyInstance, ctx: AppContext): void {
  const serverCap = serverDailyTokenCap(ctx.config.AGENT_DAILY_TOKEN_CAP);
  const settings = async (institutionId: string) => ({
    dailyTokenCap: await dailyTokenCap(ctx.db, institutionId),
    serverDailyTokenCap: serverCap,
  });

  app.get('/api/institutions/:id/agents/usage', async (request) => {
    const { userId } = getAuth(request);
    const params = workspaceParams.parse(request.params);
    const query = agentUsageQuery.parse(request.query);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    return agentUsage(ctx.db, params.id, query.days, serverCap);
  });

  app.get('/api/institutions/:id/agents/:agentId/runs', async (request) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    const query = agentRunsQuery.parse(request.query);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    await requireAgent(ctx.db, params.id, params.agentId);
    return { runs: await listRuns(ctx.db, params.id, params.agentId, query.limit) };
  });

  app.get('/api/institutions/:id/agent-settings', async (request) => {
    const { userId } = getAuth(request);
    const params = workspaceParams.parse(request.params);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    return settings(params.id);
  });

  app.put('/api/institutions/:id/agent-settings', async (request) => {
    const { userId } = getAuth(request);
    const params = workspaceParams.parse(request.params);
    const body = agentSettingsBody.parse(request.body);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    // A workspace cap can only lower the operator's: a higher one is refused rather than silently cut.
    if (serverCap !== null && body.dailyTokenCap !== null && body.dailyTokenCap > serverCap)
      throw badRequest(
        `This server allows each workspace at most ${serverCap.toLocaleString('en-US')} agent tokens a day; choose that or less.`,
      );
    await setDailyTokenCap(ctx.db, params.id, body.dailyTokenCap);
    return settings(params.id);
  });
}
