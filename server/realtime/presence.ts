// Who is online: a user is online while at least one of their sockets is connected, on any node. Counts
// come from fetchSockets(), which asks every node through the adapter, so nothing is kept in memory here.
import type { Logger } from 'pino';
import { rooms } from '../context.ts';
import type { LanternServer, LanternSocket } from './types.ts';

export interface Presence {
  /** Announce the user online to their workspaces if this is their first socket. */
  connected(socket: LanternSocket): Promise<void>;
  /**
   * Announce the user offline if that was their last socket, to the workspace rooms the socket was in
   * (taken at 'disconnecting': it may have joined workspaces since its handshake).
   */
  disconnected(socket: LanternSocket, institutionRooms: string[]): Promise<void>;
  /** Ids of the users with a socket in this workspace's room, for member listings. */
  onlineUserIds(institutionId: string): Promise<Set<string>>;
}

const INSTITUTION_ROOM_PREFIX = rooms.institution('');
/** How long presence announcements may hold the event loop before other work gets a turn. */
const ANNOUNCE_SLICE_MS = 10;

/** The workspace rooms a socket is in right now. */
export const institutionRoomsOf = (socket: LanternSocket) =>
  [...socket.rooms].filter((room) => room.startsWith(INSTITUTION_ROOM_PREFIX));

export function createPresence(io: LanternServer, log: Logger): Presence {
  const socketCount = async (userId: string) => (await io.in(rooms.user(userId)).fetchSockets()).length;

  // Announcements wait in one queue, sent a time slice at a time. Each goes to every socket of the
  // workspace: when hundreds of people connect at once (a restart, a network coming back), sending them
  // as they come would hold the event loop for seconds; sliced, other work runs in between, in order.
  const announcements: Array<() => void> = [];
  let sending = false;
  const sendSlice = () => {
    const until = performance.now() + ANNOUNCE_SLICE_MS;
    while (announcements.length > 0 && performance.now() < until) announcements.shift()?.();
    if (announcements.length > 0) setImmediate(sendSlice);
    else sending = false;
  };
  /** Resolves once sent, so whoever waits for presence work (close) waits for the broadcast too. */
  const announce = (userId: string, institutionRooms: string[], status: 'online' | 'offline') =>
    new Promise<void>((resolve) => {
      if (institutionRooms.length === 0) return resolve();
      announcements.push(() => {
        io.to(institutionRooms).emit('userOnlineStatusUpdate', { user: { id: userId }, status });
        resolve();
      });
      if (!sending) {
        sending = true;
        setImmediate(sendSlice);
      }
    });

  // Transitions of one user run one after another on this node. Otherwise a reload's old socket (its
  // count taken before the new socket joined) could announce "offline" after the new one's "online".
  const queues = new Map<string, Promise<void>>();
  const serially = (userId: string, step: () => Promise<void>): Promise<void> => {
    const run = (queues.get(userId) ?? Promise.resolve()).then(step);
    const tail = run.catch(() => undefined);
    queues.set(userId, tail);
    void tail.then(() => {
      if (queues.get(userId) === tail) queues.delete(userId);
    });
    return run;
  };

  return {
    connected(socket) {
      const { userId } = socket.data;
      return serially(userId, async () => {
        try {
          // The new socket is already in its user room, so "first" means a count of one.
          if ((await socketCount(userId)) <= 1) await announce(userId, institutionRoomsOf(socket), 'online');
        } catch (err) {
          log.warn({ err }, 'presence: could not count sockets on connect');
        }
      });
    },
    disconnected(socket, institutionRooms) {
      const { userId } = socket.data;
      return serially(userId, async () => {
        try {
          // socket.io has already removed the socket from its rooms when 'disconnect' fires.
          if ((await socketCount(userId)) === 0) await announce(userId, institutionRooms, 'offline');
        } catch (err) {
          log.warn({ err }, 'presence: could not count sockets on disconnect');
        }
      });
    },
    async onlineUserIds(institutionId) {
      const sockets = await io.in(rooms.institution(institutionId)).fetchSockets();
      return new Set(sockets.map((s) => s.data.userId));
    },
  };
}
