// Channel role routes under /api/institutions/:id/channels/:channelId: roles, who holds them, and
// handing over ownership.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createChannelRoleBody,
  id,
  roleMembersBody,
  transferOwnershipBody,
  updateChannelRoleBody,
} from '../../schemas/protocol/index.ts';
import {
  createChannelRole,
  deleteChannelRole,
  listChannelRoles,
  setRoleMembers,
  transferOwnership,
  updateChannelRole,
} from '../channels/roles.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { getAuth } from './auth-hook.ts';

const channelParams = z.object({ id, channelId: id });
const roleParams = channelParams.extend({ roleId: id });
const base = '/api/institutions/:id/channels/:channelId';

export function registerChannelRoleRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${base}/roles`, async (request) => {
    const p = channelParams.parse(request.params);
    return { data: await listChannelRoles(ctx.db, getAuth(request).userId, p.id, p.channelId) };
  });

  app.post(`${base}/roles`, async (request, reply) => {
    const p = channelParams.parse(request.params);
    const body = createChannelRoleBody.parse(request.body);
    const role = await createChannelRole(ctx, getAuth(request).userId, p.id, p.channelId, body);
    return reply.status(201).send({ role });
  });

  app.put(`${base}/roles/:roleId`, async (request) => {
    const p = roleParams.parse(request.params);
    const body = updateChannelRoleBody.parse(request.body);
    return { role: await updateChannelRole(ctx, getAuth(request).userId, p.id, p.channelId, p.roleId, body) };
  });

  app.delete(`${base}/roles/:roleId`, async (request) => {
    const p = roleParams.parse(request.params);
    return deleteChannelRole(ctx, getAuth(request).userId, p.id, p.channelId, p.roleId);
  });

  app.put(`${base}/roles/:roleId/members`, { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const p = roleParams.parse(request.params);
    const { members } = roleMembersBody.parse(request.body);
    return setRoleMembers(ctx, getAuth(request).userId, p.id, p.channelId, p.roleId, members);
  });

  app.put(`${base}/transfer-ownership`, async (request) => {
    const p = channelParams.parse(request.params);
    const { member } = transferOwnershipBody.parse(request.body);
    return transferOwnership(ctx, getAuth(request).userId, p.id, p.channelId, member);
  });
}
