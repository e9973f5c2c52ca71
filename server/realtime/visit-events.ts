// Visit events: the client reports opening a profile, a channel or a group; the server records it for
// metrics after checking the visitor may see it.
import { visitChannelPayload, visitGroupPayload, visitMemberPayload } from '../../schemas/protocol/index.ts';
import { recordActivity } from '../push/activity.ts';
import { recordVisit } from '../services/visits.ts';
import { acknowledged, type SocketHandlers } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';

export function visitEventHandlers(deps: HandlerDeps): SocketHandlers {
  const { db, log } = deps;
  const ok = { ok: true as const };
  return {
    visitMember: acknowledged(log, 'visitMember', visitMemberPayload, async (socket, p) => {
      await recordVisit(db, socket.data.userId, p.institutionId, 'member', p.memberId);
      return ok;
    }),

    visitChannel: acknowledged(log, 'visitChannel', visitChannelPayload, async (socket, p) => {
      const { userId, sessionId } = socket.data;
      await recordVisit(db, userId, p.institutionId, 'channel', p.channelId);
      // Opening a channel is reading it: pushes for it wait (server/push/decision.ts).
      await recordActivity(db, { sessionId, userId }, p.channelId);
      return ok;
    }),

    visitGroup: acknowledged(log, 'visitGroup', visitGroupPayload, async (socket, p) => {
      await recordVisit(db, socket.data.userId, p.institutionId, 'group', p.groupId);
      return ok;
    }),
  };
}
