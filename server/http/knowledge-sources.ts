// REST routes for an agent's knowledge sources: members of the workspace list them; owners and admins add
// (text, an uploaded file or a web address the server fetches) and remove them.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createKnowledgeSourceBody, id, uploadKnowledgeSourceQuery } from '../../schemas/protocol/index.ts';
import { requireMember, requireWorkspaceAdmin } from '../access.ts';
import { requireAgent } from '../agents/agents.ts';
import {
  addKnowledgeSource,
  addUploadedKnowledgeSource,
  deleteKnowledgeSource,
  type KnowledgeDeps,
  listKnowledgeSources,
} from '../agents/knowledge.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors.ts';
import { createFileStore } from '../files/file-store.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { getAuth } from './auth-hook.ts';

const agentParams = z.object({ id, agentId: id });
const sourceParams = agentParams.extend({ sourceId: id });

export function registerKnowledgeSourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deps: KnowledgeDeps = {
    db: ctx.db,
    store: createFileStore(ctx.config, ctx.secrets.fileSigningKey),
    maxFileBytes: ctx.config.FILE_MAX_BYTES,
    url: {
      timeoutMs: ctx.config.KNOWLEDGE_URL_TIMEOUT_MS,
      maxBytes: ctx.config.KNOWLEDGE_URL_MAX_BYTES,
      allowPrivate: ctx.config.KNOWLEDGE_URL_ALLOW_PRIVATE,
    },
    extraction: ctx.documents.limits,
    extractions: ctx.documents.slots,
  };
  const base = '/api/institutions/:id/agents/:agentId/knowledge-sources';

  app.get(base, async (request) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    await requireMember(ctx.db, params.id, userId);
    await requireAgent(ctx.db, params.id, params.agentId);
    return { knowledgeSources: await listKnowledgeSources(ctx.db, params.agentId) };
  });

  app.post(base, { bodyLimit: BODY_LIMITS.knowledgeText }, async (request, reply) => {
    const { userId } = getAuth(request);
    const params = agentParams.parse(request.params);
    const body = createKnowledgeSourceBody.parse(request.body);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    await requireAgent(ctx.db, params.id, params.agentId);
    const knowledgeSource = await addKnowledgeSource(deps, userId, params.agentId, body);
    return reply.code(201).send({ knowledgeSource });
  });

  // A document's bytes as the body, any content type: its own scope with a buffer parser capped at the
  // file size limit (Fastify answers 413 beyond it before the handler runs).
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: ctx.config.FILE_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.post(`${base}/upload`, { bodyLimit: ctx.config.FILE_MAX_BYTES }, async (request, reply) => {
      const { userId } = getAuth(request);
      const params = agentParams.parse(request.params);
      const query = uploadKnowledgeSourceQuery.parse(request.query);
      await requireWorkspaceAdmin(ctx.db, params.id, userId);
      await requireAgent(ctx.db, params.id, params.agentId);
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (bytes.length === 0) throw new HttpError(400, 'The file is empty');
      const fileType = (request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      const knowledgeSource = await addUploadedKnowledgeSource(deps, params.agentId, {
        fileName: query.fileName,
        fileType,
        bytes,
        title: query.title,
      });
      return reply.code(201).send({ knowledgeSource });
    });
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
