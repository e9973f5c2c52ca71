// REST: a channel's pinned messages and the caller's starred messages in it (the side panel lists).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { id, messageListQuery } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import { pinnedMessages, starredMessages } from '../messages/lists.ts';
import { getAuth } from './auth-hook.ts';

const channelParams = z.object({ id, channelId: id });

export function registerMessageListRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  app.get('/api/institutions/:id/channels/:channelId/messages/pinned', async (request) => {
    const { userId } = getAuth(request);
    const params = channelParams.parse(request.params);
    const query = messageListQuery.parse(request.query);
    await requireChannelMember(db, params.id, params.channelId, userId);
    return pinnedMessages(db, params.channelId, query.page, query.limit);
  });

  app.get('/api/institutions/:id/channels/:channelId/messages/starred', async (request) => {
    const { userId } = getAuth(request);
    const params = channelParams.parse(request.params);
    const query = messageListQuery.parse(request.query);
    const access = await requireChannelMember(db, params.id, params.channelId, userId);
    return starredMessages(db, params.channelId, access.member.id, query.page, query.limit);
  });
}
