// Routes for one workspace member: role changes (single and bulk), the member's profile, and leaving.
// Static segments (bulk, me) win over :memberId in Fastify's router.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bulkUpdateMembersBody, id, updateMemberBody } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { leaveWorkspace, memberProfile, updateMemberRoles } from '../services/workspace-members.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const memberParams = z.object({ id, memberId: id });
const base = '/api/institutions/:id/members';

export function registerWorkspaceMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.put(`${base}/bulk`, { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const params = institutionParams.parse(request.params);
    const { memberIds, update } = bulkUpdateMembersBody.parse(request.body);
    return { data: await updateMemberRoles(ctx, getAuth(request).userId, params.id, memberIds, update.role) };
  });

  app.delete(`${base}/me`, async (request) => {
    const params = institutionParams.parse(request.params);
    return leaveWorkspace(ctx, getAuth(request).userId, params.id);
  });

  app.get(`${base}/:memberId`, async (request) => {
    const params = memberParams.parse(request.params);
    return memberProfile(ctx, getAuth(request).userId, params.id, params.memberId);
  });

  app.put(`${base}/:memberId`, async (request) => {
    const params = memberParams.parse(request.params);
    const { role } = updateMemberBody.parse(request.body);
    const [member] = await updateMemberRoles(
      ctx,
      getAuth(request).userId,
      params.id,
      [params.memberId],
      role,
    );
    return { member };
  });
}
