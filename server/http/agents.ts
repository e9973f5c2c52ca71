// REST routes for a workspace's agents: members list them, owners and admins create, change and remove them.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createAgentBody, id, updateAgentBody } from '../../schemas/protocol/index.ts';
import { requireMember, requireWorkspaceAdmin } from '../access.ts';
import { createAgent, deleteAgent, listAgents, toWireAgent, updateAgent } from '../agents/agents.ts';
import { allowedModels, defaultModelLabel, modelRefusal } from '../agents/model-provider.ts';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../errors.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { getAuth } from './auth-hook.ts';

const workspaceParams = z.object({ id });

/** An agent may name only a model on the operator's list (AGENT_MODELS): anything else is a 400. */
function refuseUnlistedModel(config: Config, model: string | null | undefined): void {
  const refusal = model ? modelRefusal(config, model) : null;
  if (refusal) throw badRequest(refusal);
}
const agentParams = z.object({ id, agentId: id });

export function registerAgentRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/institutions/:id/agents', async (request) => {
    const { userId } = getAuth(request);
    const params = workspaceParams.parse(request.params);
    await requireMember(ctx.db, params.id, userId);
    return {
      agents: (await listAgents(ctx.db, params.id)).map(toWireAgent),
      defaultModel: defaultModelLabel(ctx.config),
      models: allowedModels(ctx.config),
    };
  });

  app.post('/api/institutions/:id/agents', { bodyLimit: BODY_LIMITS.agent }, async (request, reply) => {
    const { userId } = getAuth(request);
    const params = workspaceParams.parse(request.params);
    const body = createAgentBody.parse(request.body);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    refuseUnlistedModel(ctx.config, body.model);
    const agent = toWireAgent(await createAgent(ctx.db, params.id, body));
    return reply.code(201).send({ agent });
  });

  app.put('/api/institutions/:id/agents/:agentId', { bodyLimit: BODY_LIMITS.agent }, async (request) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    const body = updateAgentBody.parse(request.body);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    refuseUnlistedModel(ctx.config, body.model);
    return { agent: toWireAgent(await updateAgent(ctx.db, params.id, params.agentId, body)) };
  });

  app.delete('/api/institutions/:id/agents/:agentId', async (request) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    await deleteAgent(ctx.db, params.id, params.agentId);
    return { agentId: params.agentId };
  });
}
