// REST: the caller's activity feed in a workspace (mentions, replies, reactions) and marking it read.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { activitiesQuery, id, markActivitiesReadBody } from '../../schemas/protocol/index.ts';
import { requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import { BODY_LIMITS } from '../request-limits.ts';
import { listActivities, markActivitiesRead } from '../services/activities.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });

export function registerActivityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  app.get('/api/institutions/:id/activities', async (request) => {
    const { userId } = getAuth(request);
    const params = institutionParams.parse(request.params);
    const query = activitiesQuery.parse(request.query);
    const member = await requireMember(db, params.id, userId);
    return listActivities(db, params.id, member.id, query.page, query.limit);
  });

  app.put('/api/institutions/:id/activities/read', { bodyLimit: BODY_LIMITS.list }, async (request) => {
    const { userId } = getAuth(request);
    const params = institutionParams.parse(request.params);
    const body = markActivitiesReadBody.parse(request.body);
    const member = await requireMember(db, params.id, userId);
    return { unread: await markActivitiesRead(db, params.id, member.id, body.ids ?? 'all') };
  });
}
