// Channel events: joining a channel's room (members only) and marking a channel read.
import { joinChannelPayload, resetUnreadCountPayload } from '../../schemas/protocol/index.ts';
import { isChannelMember, requireChannelMember } from '../access.ts';
import { rooms } from '../context.ts';
import { resetUnreadCount } from '../messages/unread.ts';
import { recordActivity } from '../push/activity.ts';
import { acknowledged, type SocketHandlers } from './ack.ts';
import type { HandlerDeps } from './handler-deps.ts';

export function channelEventHandlers(deps: HandlerDeps): SocketHandlers {
  const { db, log } = deps;
  return {
    joinChannel: acknowledged(log, 'joinChannel', joinChannelPayload, async (socket, p) => {
      const { userId } = socket.data;
      // One statement when allowed (a reconnect joins every channel); the full check says why not.
      if (!(await isChannelMember(db, p.institutionId, p.channelId, userId)))
        await requireChannelMember(db, p.institutionId, p.channelId, userId);
      await socket.join(rooms.channel(p.channelId));
      return { ok: true as const };
    }),

    resetUnreadCount: acknowledged(log, 'resetUnreadCount', resetUnreadCountPayload, async (socket, p) => {
      const { userId, sessionId } = socket.data;
      const { member } = await requireChannelMember(db, p.institutionId, p.channelId, userId);
      await resetUnreadCount(db, p.channelId, member.id);
      // Marking a channel read is reading it: its pushes wait (server/push/decision.ts).
      await recordActivity(db, { sessionId, userId }, p.channelId);
      return { ok: true as const };
    }),
  };
}
