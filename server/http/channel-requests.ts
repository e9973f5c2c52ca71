// Join-request routes: a non-member asks to join a private channel, its managers list and answer the
// requests, and GET channels/requests/mine lists the caller's own requests in the workspace.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  channelRequestsQuery,
  createChannelRequestBody,
  id,
  updateChannelRequestBody,
} from '../../schemas/protocol/index.ts';
import {
  createChannelRequest,
  decideChannelRequest,
  listChannelRequests,
  myChannelRequests,
} from '../channels/requests.ts';
import type { AppContext } from '../context.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const channelParams = z.object({ id, channelId: id });
const requestParams = channelParams.extend({ requestId: id });
const base = '/api/institutions/:id/channels';

export function registerChannelRequestRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${base}/requests/mine`, async (request) => {
    const p = institutionParams.parse(request.params);
    const { status } = channelRequestsQuery.parse(request.query);
    return { data: await myChannelRequests(ctx.db, getAuth(request).userId, p.id, status) };
  });

  app.post(`${base}/:channelId/requests`, async (request, reply) => {
    const p = channelParams.parse(request.params);
    const { reason } = createChannelRequestBody.parse(request.body);
    const created = await createChannelRequest(ctx, getAuth(request).userId, p.id, p.channelId, reason);
    return reply.status(201).send({ request: created });
  });

  app.get(`${base}/:channelId/requests`, async (request) => {
    const p = channelParams.parse(request.params);
    const { status } = channelRequestsQuery.parse(request.query);
    return { data: await listChannelRequests(ctx.db, getAuth(request).userId, p.id, p.channelId, status) };
  });

  app.put(`${base}/:channelId/requests/:requestId`, async (request) => {
    const p = requestParams.parse(request.params);
    const { status } = updateChannelRequestBody.parse(request.body);
    const userId = getAuth(request).userId;
    return { request: await decideChannelRequest(ctx, userId, p.id, p.channelId, p.requestId, status) };
  });
}
