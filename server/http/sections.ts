// Sidebar section routes under /api/institutions/:id/channels/sections (the caller's own layout).
// Static segments win over channels/:channelId in Fastify's router, so these never reach channel routes.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createSectionBody,
  id,
  reorderSectionsBody,
  replaceSectionsBody,
  updateSectionBody,
} from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import {
  createSection,
  deleteSection,
  listSections,
  reorderSections,
  replaceSections,
  updateSection,
} from '../services/sections.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const sectionParams = z.object({ id, sectionId: id });
const base = '/api/institutions/:id/channels/sections';

export function registerSectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(base, async (request) => {
    const params = institutionParams.parse(request.params);
    return { data: await listSections(ctx.db, getAuth(request).userId, params.id) };
  });

  app.post(base, { bodyLimit: BODY_LIMITS.sections }, async (request, reply) => {
    const params = institutionParams.parse(request.params);
    const body = createSectionBody.parse(request.body);
    const { data, section, created } = await createSection(ctx, getAuth(request).userId, params.id, body);
    return reply.status(created ? 201 : 200).send({ data, section });
  });

  app.put(base, { bodyLimit: BODY_LIMITS.sections }, async (request) => {
    const params = institutionParams.parse(request.params);
    const body = replaceSectionsBody.parse(request.body);
    return { data: await replaceSections(ctx, getAuth(request).userId, params.id, body) };
  });

  app.put(`${base}/reorder`, async (request) => {
    const params = institutionParams.parse(request.params);
    const { sectionIds } = reorderSectionsBody.parse(request.body);
    return { data: await reorderSections(ctx, getAuth(request).userId, params.id, sectionIds) };
  });

  app.put(`${base}/:sectionId`, { bodyLimit: BODY_LIMITS.sections }, async (request) => {
    const params = sectionParams.parse(request.params);
    const body = updateSectionBody.parse(request.body);
    return {
      data: await updateSection(ctx, getAuth(request).userId, params.id, params.sectionId, body),
    };
  });

  app.delete(`${base}/:sectionId`, async (request) => {
    const params = sectionParams.parse(request.params);
    return { data: await deleteSection(ctx, getAuth(request).userId, params.id, params.sectionId) };
  });
}
