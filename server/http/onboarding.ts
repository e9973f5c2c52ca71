// The first minutes in a workspace (decision 0045): the caller's own membership (PUT .../members), the
// getting-started checklist, and the shareable invite link (managed by admins, opened by anyone signed in).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createInviteLinkBody,
  id,
  inviteLinkToken,
  updateOwnMembershipBody,
} from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import {
  createInviteLink,
  currentInviteLink,
  joinByInviteLink,
  previewInviteLink,
  revokeInviteLink,
} from '../services/invite-links.ts';
import { updateOwnMembership, workspaceChecklist } from '../services/workspace-checklist.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const tokenParams = z.object({ token: inviteLinkToken });
const workspace = '/api/institutions/:id';

export function registerOnboardingRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.put(`${workspace}/members`, async (request) => {
    const params = institutionParams.parse(request.params);
    const body = updateOwnMembershipBody.parse(request.body);
    return updateOwnMembership(ctx, getAuth(request).userId, params.id, body);
  });

  app.get(`${workspace}/checklist`, async (request) => {
    const params = institutionParams.parse(request.params);
    return workspaceChecklist(ctx.db, getAuth(request).userId, params.id);
  });

  app.get(`${workspace}/invite-link`, async (request) => {
    const params = institutionParams.parse(request.params);
    return { link: await currentInviteLink(ctx, getAuth(request).userId, params.id) };
  });

  app.post(`${workspace}/invite-link`, async (request, reply) => {
    const params = institutionParams.parse(request.params);
    const { expiresInDays } = createInviteLinkBody.parse(request.body);
    const link = await createInviteLink(ctx, getAuth(request).userId, params.id, expiresInDays);
    return reply.status(201).send({ link });
  });

  app.delete(`${workspace}/invite-link`, async (request) => {
    const params = institutionParams.parse(request.params);
    await revokeInviteLink(ctx.db, getAuth(request).userId, params.id);
    return { ok: true };
  });

  app.get('/api/invite-links/:token', async (request) => {
    const { token } = tokenParams.parse(request.params);
    return previewInviteLink(ctx.db, getAuth(request).userId, token);
  });

  app.post('/api/invite-links/:token', async (request) => {
    const { token } = tokenParams.parse(request.params);
    return joinByInviteLink(ctx, getAuth(request).userId, token);
  });
}
