// The Broadcaster services use (server/context.ts), emitting to rooms through the socket.io adapter so
// that with Redis every node's sockets in the room receive it. Channel broadcasts are marked so that each
// node delivers them only to current members (server/realtime/channel-audience.ts).
import type { ServerToClientEvents } from '../../schemas/protocol/index.ts';
import { type Broadcaster, rooms } from '../context.ts';
import { audienceMark } from './channel-audience.ts';
import type { LanternServer } from './types.ts';

type Args<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

export function createBroadcaster(io: LanternServer): Broadcaster {
  const emit = <E extends keyof ServerToClientEvents>(room: string, event: E, args: Args<E>) => {
    io.to(room).emit(event, ...args);
  };
  return {
    toChannel: (channelId, event, ...args) =>
      io
        .to(rooms.channel(channelId))
        .except(audienceMark(channelId))
        .emit(event, ...args),
    toUser: (userId, event, ...args) => emit(rooms.user(userId), event, args),
    toInstitution: (institutionId, event, ...args) => emit(rooms.institution(institutionId), event, args),
  };
}
