// Workspace routes: /api/institutions, its members and its invitations.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailsBody, id, institutionBody, updateInstitutionBody } from '../../schemas/protocol/index.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import {
  acceptInvitation,
  createInstitution,
  declineInvitation,
  inviteMembers,
  listInstitutions,
  listInvitations,
  listMembers,
  myInvitations,
  resendInvitation,
  revokeInvitations,
  updateInstitution,
} from '../services/institutions.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const invitationParams = z.object({ invitationId: id });
const workspaceInvitationParams = z.object({ id, invitationId: id });

export function registerInstitutionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/institutions', async (request) => ({
    data: await listInstitutions(ctx.db, getAuth(request).userId),
  }));

  app.post('/api/institutions', async (request, reply) => {
    const { name } = institutionBody.parse(request.body);
    const created = await createInstitution(ctx, getAuth(request).userId, name);
    return reply.status(201).send(created);
  });

  app.get('/api/institutions/invited', async (request) => ({
    data: await myInvitations(ctx.db, getAuth(request).userId),
  }));

  // Declining an invitation (not in the spec's call list; the client needs a way to say no).
  app.delete('/api/institutions/invited/:invitationId', async (request) => {
    const { invitationId } = invitationParams.parse(request.params);
    await declineInvitation(ctx.db, getAuth(request).userId, invitationId);
    return { ok: true };
  });

  app.put('/api/institutions/:id', async (request) => {
    const params = institutionParams.parse(request.params);
    const patch = updateInstitutionBody.parse(request.body);
    return updateInstitution(ctx, getAuth(request).userId, params.id, patch);
  });

  app.get('/api/institutions/:id/members', async (request) => {
    const params = institutionParams.parse(request.params);
    return { data: await listMembers(ctx, getAuth(request).userId, params.id) };
  });

  /** Accepting an invitation: only someone invited (by e-mail address) can become a member. */
  app.post('/api/institutions/:id/members', async (request) => {
    const params = institutionParams.parse(request.params);
    return acceptInvitation(ctx, getAuth(request).userId, params.id);
  });

  app.get('/api/institutions/:id/invited-members', async (request) => {
    const params = institutionParams.parse(request.params);
    return { data: await listInvitations(ctx.db, getAuth(request).userId, params.id) };
  });

  app.post('/api/institutions/:id/invited-members', { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const params = institutionParams.parse(request.params);
    const { emails } = emailsBody.parse(request.body);
    return inviteMembers(ctx, getAuth(request).userId, params.id, emails);
  });

  app.post('/api/institutions/:id/invited-members/:invitationId/resend', async (request) => {
    const params = workspaceInvitationParams.parse(request.params);
    const invitation = await resendInvitation(ctx, getAuth(request).userId, params.id, params.invitationId);
    return { invitation };
  });

  app.delete('/api/institutions/:id/invited-members', { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const params = institutionParams.parse(request.params);
    const { emails } = emailsBody.parse(request.body);
    return revokeInvitations(ctx.db, getAuth(request).userId, params.id, emails);
  });
}
