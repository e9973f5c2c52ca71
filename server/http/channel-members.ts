// Channel membership routes under /api/institutions/:id/channels: list, add and remove members, the
// caller's own settings, blocking in direct messages and profile channels. (Joining and leaving oneself,
// POST/DELETE :channelId/members, live in server/http/channels.ts.)
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  channelMembersBody,
  channelMembersQuery,
  id,
  profileChannelsBody,
  updateMembershipBody,
} from '../../schemas/protocol/index.ts';
import {
  addChannelMembers,
  listChannelMembers,
  removeChannelMembers,
  setBlocked,
  updateOwnMembership,
} from '../channels/membership.ts';
import { setProfileChannels } from '../channels/profile-channels.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });
const channelParams = z.object({ id, channelId: id });
const base = '/api/institutions/:id/channels';

export function registerChannelMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${base}/:channelId/members`, async (request) => {
    const p = channelParams.parse(request.params);
    const { role } = channelMembersQuery.parse(request.query);
    return { data: await listChannelMembers(ctx, getAuth(request).userId, p.id, p.channelId, role) };
  });

  app.post(`${base}/:channelId/members/add`, { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const p = channelParams.parse(request.params);
    const { members } = channelMembersBody.parse(request.body);
    return { data: await addChannelMembers(ctx, getAuth(request).userId, p.id, p.channelId, members) };
  });

  app.delete(`${base}/:channelId/members/remove`, { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const p = channelParams.parse(request.params);
    const { members } = channelMembersBody.parse(request.body);
    return removeChannelMembers(ctx, getAuth(request).userId, p.id, p.channelId, members);
  });

  app.put(`${base}/:channelId/members`, async (request) => {
    const p = channelParams.parse(request.params);
    const body = updateMembershipBody.parse(request.body);
    return {
      channelMember: await updateOwnMembership(ctx, getAuth(request).userId, p.id, p.channelId, body),
    };
  });

  app.put(`${base}/:channelId/block`, async (request) => {
    const p = channelParams.parse(request.params);
    return { channelMember: await setBlocked(ctx, getAuth(request).userId, p.id, p.channelId, true) };
  });

  app.put(`${base}/:channelId/unblock`, async (request) => {
    const p = channelParams.parse(request.params);
    return { channelMember: await setBlocked(ctx, getAuth(request).userId, p.id, p.channelId, false) };
  });

  app.put(`${base}/profile-channels`, async (request) => {
    const p = institutionParams.parse(request.params);
    const { channels } = profileChannelsBody.parse(request.body);
    return setProfileChannels(ctx, getAuth(request).userId, p.id, channels);
  });
}
