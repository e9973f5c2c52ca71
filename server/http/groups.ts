// Workspace group routes: /api/institutions/:id/groups (listing for members, changes for admins).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { groupBody, groupEmailsBody, id } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { changeGroupMembers, createGroup, deleteGroup, listGroups, renameGroup } from '../services/groups.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const groupParams = z.object({ id, groupId: id });
const base = '/api/institutions/:id/groups';

export function registerGroupRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(base, async (request) => {
    const params = institutionParams.parse(request.params);
    return { data: await listGroups(ctx.db, getAuth(request).userId, params.id) };
  });

  app.post(base, async (request, reply) => {
    const params = institutionParams.parse(request.params);
    const { name } = groupBody.parse(request.body);
    return reply
      .status(201)
      .send({ group: await createGroup(ctx, getAuth(request).userId, params.id, name) });
  });

  app.put(`${base}/:groupId`, async (request) => {
    const params = groupParams.parse(request.params);
    const { name } = groupBody.parse(request.body);
    return { group: await renameGroup(ctx, getAuth(request).userId, params.id, params.groupId, name) };
  });

  app.delete(`${base}/:groupId`, async (request) => {
    const params = groupParams.parse(request.params);
    return { group: await deleteGroup(ctx, getAuth(request).userId, params.id, params.groupId) };
  });

  app.put(`${base}/:groupId/emails`, { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const params = groupParams.parse(request.params);
    const body = groupEmailsBody.parse(request.body);
    return changeGroupMembers(ctx, getAuth(request).userId, params.id, params.groupId, body);
  });
}
