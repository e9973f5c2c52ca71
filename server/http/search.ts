// REST route for message search in a workspace (server/search/message-search.ts does the work).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { id, messageSearchQuery } from '../../schemas/protocol/index.ts';
import { requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import { searchMessages } from '../search/message-search.ts';
import { getAuth } from './auth-hook.ts';

const institutionParams = z.object({ id });

export function registerSearchRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/institutions/:id/messages/search', async (request) => {
    const { userId } = getAuth(request);
    const params = institutionParams.parse(request.params);
    const query = messageSearchQuery.parse(request.query);
    const member = await requireMember(ctx.db, params.id, userId);
    return searchMessages(ctx.db, { institutionId: params.id, memberId: member.id, ...query });
  });
}
