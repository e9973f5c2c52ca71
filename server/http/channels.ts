// Channel routes under /api/institutions/:id/channels (messages live in server/http/messages.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  channelDefaultBody,
  createChannelBody,
  directMessageBody,
  id,
  updateChannelBody,
} from '../../schemas/protocol/index.ts';
import {
  browsableChannels,
  createChannel,
  deleteChannel,
  joinChannel,
  joinedChannels,
  leaveChannel,
  lookUpChannel,
  openDirectMessage,
  updateChannel,
} from '../channels/channels.ts';
import { setChannelDefault } from '../channels/default-channels.ts';
import type { AppContext } from '../context.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const channelParams = z.object({ id, channelId: id });
const base = '/api/institutions/:id/channels';

export function registerChannelRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(base, async (request) => {
    const params = institutionParams.parse(request.params);
    return { data: await browsableChannels(ctx.db, getAuth(request).userId, params.id) };
  });

  app.post(base, async (request, reply) => {
    const params = institutionParams.parse(request.params);
    const body = createChannelBody.parse(request.body);
    return reply.status(201).send(await createChannel(ctx, getAuth(request).userId, params.id, body));
  });

  app.get(`${base}/joined`, async (request) => {
    const params = institutionParams.parse(request.params);
    return joinedChannels(ctx.db, getAuth(request).userId, params.id);
  });

  app.post(`${base}/direct_messages`, async (request) => {
    const params = institutionParams.parse(request.params);
    const { directMessageMemberId } = directMessageBody.parse(request.body);
    return openDirectMessage(ctx, getAuth(request).userId, params.id, directMessageMemberId);
  });

  app.put(`${base}/:channelId`, async (request) => {
    const params = channelParams.parse(request.params);
    const change = updateChannelBody.parse(request.body);
    return {
      channel: await updateChannel(ctx, getAuth(request).userId, params.id, params.channelId, change),
    };
  });

  app.delete(`${base}/:channelId`, async (request) => {
    const params = channelParams.parse(request.params);
    return deleteChannel(ctx, getAuth(request).userId, params.id, params.channelId);
  });

  app.put(`${base}/:channelId/default`, async (request) => {
    const params = channelParams.parse(request.params);
    const { isDefault } = channelDefaultBody.parse(request.body);
    const userId = getAuth(request).userId;
    return { channel: await setChannelDefault(ctx, userId, params.id, params.channelId, isDefault) };
  });

  app.get(`${base}/:channelId/lookup`, async (request) => {
    const params = channelParams.parse(request.params);
    return lookUpChannel(ctx.db, getAuth(request).userId, params.id, params.channelId);
  });

  app.post(`${base}/:channelId/members`, async (request) => {
    const params = channelParams.parse(request.params);
    return joinChannel(ctx, getAuth(request).userId, params.id, params.channelId);
  });

  app.delete(`${base}/:channelId/members`, async (request) => {
    const params = channelParams.parse(request.params);
    return leaveChannel(ctx, getAuth(request).userId, params.id, params.channelId);
  });
}
