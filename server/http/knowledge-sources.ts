// REST routes for an agent's knowledge sources: members of the workspace list them; owners and admins add
// (text or an uploaded file) and remove them.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createKnowledgeSourceBody, id } from '../../schemas/protocol.ts';
import { requireMember, requireWorkspaceAdmin } from '../access.ts';
import { requireAgent } from '../agents/agents.ts';
import {
  addKnowledgeSource,
  deleteKnowledgeSource,
  type KnowledgeDeps,
  listKnowledgeSources,
} from '../agents/knowledge.ts';
import type { AppContext } from '../context.ts';
import { createFileStore } from '../files/file-store.ts';
import { getAuth } from './auth-hook.ts';

const agentParams = z.object({ id, agentId: id });
const sourceParams = agentParams.extend({ sourceId: id });

export function registerKnowledgeSourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: KnowledgeDeps = {
    db: ctx.db,
    store: createFileStore(ctx.config, ctx.secrets.fileSigningKey),
    maxFileBytes: ctx.config.FILE_MAX_BYTES,
  };
  const base = '/api/institutions/:id/agents/:agentId/knowledge-sources';

  app.get(base, async (request) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    await requireMember(ctx.db, params.id, userId);
    await requireAgent(ctx.db, params.id, params.agentId);
    return { knowledgeSources: await listKnowledgeSources(ctx.db, params.agentId) };
  });

  app.post(base, async (request, reply) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    const body = createKnowledgeSourceBody.parse(request.body);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    await requireAgent(ctx.db, params.id, params.agentId);
    const knowledgeSource = await addKnowledgeSource(deps, userId, params.agentId, body);
    return reply.code(201).send({ knowledgeSource });
  });

  app.delete(`${base}/:sourceId`, async (request) => {
    const { userId } = getAuth(request);
    const params = sourceParams.parse(request.params);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    await requireAgent(ctx.db, params.id, params.agentId);
    await deleteKnowledgeSource(ctx.db, params.agentId, params.sourceId);
    return { sourceId: params.sourceId };
  });
}
