// Visit events: the client reports opening a profile, a channel or a group; the server records it for
// metrics after checking the visitor may see it.
import { visitChannelPayload, visitGroupPayload, visitMemberPayload } from '../../schemas/protocol/index.ts';
import { recordActivity } from '../push/activity.ts';
import { recordVisit } from '../services/visits.ts';
import { acknowledged } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';
import type { LanternSocket } from './types.ts';

export function registerVisitEvents(socket: LanternSocket, deps: HandlerDeps): void {
  const { db, log } = deps;
  const userId = socket.data.userId;
  const ok = { ok: true as const };

  socket.on(
    'visitMember',
    acknowledged(log, 'visitMember', visitMemberPayload, async (p) => {
      await recordVisit(db, userId, p.institutionId, 'member', p.memberId);
      return ok;
    }),
  );

  socket.on(
    'visitChannel',
    acknowledged(log, 'visitChannel', visitChannelPayload, async (p) => {
      await recordVisit(db, userId, p.institutionId, 'channel', p.channelId);
      // Opening a channel is reading it: pushes for it wait (server/push/decision.ts).
      await recordActivity(db, { sessionId: socket.data.sessionId, userId }, p.channelId);
      return ok;
    }),
  );

  socket.on(
    'visitGroup',
    acknowledged(log, 'visitGroup', visitGroupPayload, async (p) => {
      await recordVisit(db, userId, p.institutionId, 'group', p.groupId);
      return ok;
    }),
  );
}
