// Visit events: the client reports opening a profile, a channel or a group; the server records it for
// metrics after checking the visitor may see it.
import { visitChannelPayload, visitGroupPayload, visitMemberPayload } from '../../schemas/protocol/index.ts';
import { accessCacheFor } from '../messages/access-cache.ts';
import { rememberPostAccess } from '../messages/batch-access.ts';
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
      // Whoever opens a channel may well post in it next: their grant is read now, after this answer,
      // rather than inside their first post (decision 0056).
      void rememberPostAccess(db, { userId, ...p }, accessCacheFor(db)).catch((err: unknown) =>
        log.warn({ err, channelId: p.channelId }, 'post access not read ahead'),
      );
      return ok;
    }),

    visitGroup: acknowledged(log, 'visitGroup', visitGroupPayload, async (socket, p) => {
      await recordVisit(db, socket.data.userId, p.institutionId, 'group', p.groupId);
      return ok;
    }),
  };
}
