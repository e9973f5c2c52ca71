// REST routes for messages: a page of history, the change feed for catch-up, the genIds the server
// already holds, and posting (the same idempotent service the socket uses).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  changesQuery,
  id,
  knownGenIdsBody,
  messagePageQuery,
  postMessageRestBody,
  workspaceChangesBody,
} from '../../schemas/protocol/index.ts';
import { requireChannelMember, requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import { requireMessage } from '../messages/find.ts';
import { messageChanges, messagePage, workspaceChanges } from '../messages/history.ts';
import { knownMessages } from '../messages/known.ts';
import { postMessage } from '../messages/post.ts';
import { withReaderStars } from '../messages/stars.ts';
import { toWireMessage } from '../messages/wire.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const channelParams = z.object({ id, channelId: id });
const messageParams = z.object({ id, channelId: id, messageId: id });

export function registerMessageRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  app.get('/api/institutions/:id/channels/:channelId/messages', async (request) => {
    const { userId } = getAuth(request);
    const params = channelParams.parse(request.params);
    const query = messagePageQuery.parse(request.query);
    const access = await requireChannelMember(db, params.id, params.channelId, userId);
    return messagePage(db, access.member.id, params.channelId, query.page, query.limit, query.before);
  });

  app.get('/api/institutions/:id/channels/:channelId/messages/changes', async (request) => {
    const { userId } = getAuth(request);
    const params = channelParams.parse(request.params);
    const query = changesQuery.parse(request.query);
    const access = await requireChannelMember(db, params.id, params.channelId, userId);
    return messageChanges(db, access.member.id, params.channelId, query.after, query.limit);
  });

  // One message, for a reply whose original is older than what the reader's device holds. Channel members
  // only, and only a message of that channel (another channel's id is 404, as a missing one).
  app.get('/api/institutions/:id/channels/:channelId/messages/:messageId', async (request) => {
    const { userId } = getAuth(request);
    const params = messageParams.parse(request.params);
    const access = await requireChannelMember(db, params.id, params.channelId, userId);
    const row = await requireMessage(db, params.channelId, params.messageId);
    const [message] = await withReaderStars(db, access.member.id, [toWireMessage(row)]);
    return message;
  });

  // A reconnect's catch-up of many channels in one request; each is checked against the caller's own
  // channel memberships (a channel they are not in is answered in notMember, with nothing from it).
  app.post('/api/institutions/:id/messages/changes', async (request) => {
    const { userId } = getAuth(request);
    const params = institutionParams.parse(request.params);
    const body = workspaceChangesBody.parse(request.body);
    return workspaceChanges(db, params.id, userId, body.channels, body.limit);
  });

  // 201 when stored now, 200 when the genId was already stored (the same message either way).
  app.post(
    '/api/institutions/:id/channels/:channelId/messages',
    { bodyLimit: BODY_LIMITS.message },
    async (request, reply) => {
      const { userId } = getAuth(request);
      const params = channelParams.parse(request.params);
      const body = postMessageRestBody.parse(request.body);
      const { message, created } = await postMessage(ctx, userId, {
        ...body,
        genId: body.genId ?? randomUUID(),
        institutionId: params.id,
        channelId: params.channelId,
      });
      return reply.code(created ? 201 : 200).send(message);
    },
  );

  app.post('/api/institutions/:id/messages/known', { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const { userId } = getAuth(request);
    const params = institutionParams.parse(request.params);
    const body = knownGenIdsBody.parse(request.body);
    const member = await requireMember(db, params.id, userId);
    return { data: await knownMessages(db, params.id, member.id, body.genIds) };
  });
}
