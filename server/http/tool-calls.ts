// REST route for the asker's decision on an agent's tool call waiting for approval. Only the member who
// asked may decide; the decision is stored on the answer (so the run sees it on whichever node it runs)
// and wakes a run waiting on this node at once.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { id, toolCallDecisionBody } from '../../schemas/protocol/index.ts';
import { requireChannelMember } from '../access.ts';
import { decideToolCall } from '../agents/answer-edit.ts';
import { announceDecision } from '../agents/tool-approval.ts';
import type { AppContext } from '../context.ts';
import { forbidden, notFound } from '../errors.ts';
import { requireLiveMessage } from '../messages/find.ts';
import { getAuth } from './auth-hook.ts';

const decisionParams = z.object({
  id,
  channelId: id,
  messageId: id,
  toolCallId: z.string().min(1).max(200),
});

export function registerToolCallRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/institutions/:id/channels/:channelId/messages/:messageId/tool-calls/:toolCallId/decision',
    async (request) => {
      const { userId } = getAuth(request);
      const params = decisionParams.parse(request.params);
      const body = toolCallDecisionBody.parse(request.body);
      const access = await requireChannelMember(ctx.db, params.id, params.channelId, userId);
      const message = await requireLiveMessage(ctx.db, params.channelId, params.messageId);
      const answer = message.agentAnswer;
      if (!answer?.toolCalls.some((c) => c.id === params.toolCallId)) throw notFound('Tool call not found');
      if (answer.askerMemberId !== access.member.id)
        throw forbidden('Only the person who asked the agent can approve or reject its tool calls');
      const updated = await decideToolCall(
        ctx,
        params.channelId,
        params.messageId,
        params.toolCallId,
        body.approve,
      );
      announceDecision(params.messageId, params.toolCallId);
      return { message: updated };
    },
  );
}
