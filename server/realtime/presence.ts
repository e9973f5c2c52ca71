// Who is online: a user is online while at least one of their sockets is connected, on any node. Counts
// come from fetchSockets(), which asks every node through the adapter, so nothing is kept in memory here.
import type { Logger } from 'pino';
import { rooms } from '../context.ts';
import { PACED } from './paced-delivery.ts';
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
/**
 * Presence changes go out in packets, one per workspace room, each holding every user who came or went
 * while the previous packets were being sent (each user's latest change). A lone change goes out on the
 * next turn of the event loop, as before; when 2,000 people connect at once, what arrives during one
 * round of packets shares the next, instead of 2,000 packets to up to 2,000 sockets each. No timer: a
 * timer would make presence arrive at a wall-clock moment, and the sync fuzz replays seeds exactly.
 */
/** Changes per packet: every socket of the room gets the whole packet, so its size bounds a slice's work. */
const UPDATES_PER_PACKET = 50;

type Status = 'online' | 'offline';

/** The workspace rooms a socket is in right now. */
export const institutionRoomsOf = (socket: LanternSocket) =>
  [...socket.rooms].filter((room) => room.startsWith(INSTITUTION_ROOM_PREFIX));

export function createPresence(io: LanternServer, log: Logger): Presence {
  const socketCount = async (userId: string) => (await io.in(rooms.user(userId)).fetchSockets()).length;

  // Changes waiting to go out, by workspace room, each user's latest last (a Map keeps insertion order).
  let pending = new Map<string, Map<string, Status>>();
  let sent: Array<() => void> = [];
  let busy = false;
  const flush = () => {
    // Packets of at most UPDATES_PER_PACKET changes, one per turn of the event loop; each is written to a
    // slice of the room's sockets per turn (./paced-delivery.ts), and other work (sign-ins, posts) runs
    // between two slices.
    const packets: Array<[string, { user: { id: string }; status: Status }[]]> = [];
    for (const [room, users] of pending) {
      const updates = [...users].map(([id, status]) => ({ user: { id }, status }));
      for (let i = 0; i < updates.length; i += UPDATES_PER_PACKET)
        packets.push([room, updates.slice(i, i + UPDATES_PER_PACKET)]);
    }
    const done = sent;
    pending = new Map();
    sent = [];
    const sendPacket = (i: number) => {
      const packet = packets[i];
      if (!packet) {
        for (const resolve of done) resolve();
        busy = false;
        if (pending.size > 0) schedule();
        return;
      }
      const [room, updates] = packet;
      // A lone change goes out as the spec's single event; several as one batch.
      // Paced (./paced-delivery.ts): a workspace of thousands is written a slice of sockets per turn.
      const to = io.to(room).except(PACED);
      if (updates.length === 1 && updates[0]) to.emit('userOnlineStatusUpdate', updates[0]);
      else to.emit('userOnlineStatusUpdates', { updates });
      setImmediate(() => sendPacket(i + 1));
    };
    sendPacket(0);
  };
  const schedule = () => {
    busy = true;
    setImmediate(flush);
  };
  /** Resolves once sent, so whoever waits for presence work (close) waits for the broadcast too. */
  const announce = (userId: string, institutionRooms: string[], status: Status) =>
    new Promise<void>((resolve) => {
      if (institutionRooms.length === 0) return resolve();
      for (const room of institutionRooms) {
        let users = pending.get(room);
        if (!users) {
          users = new Map();
          pending.set(room, users);
        }
        users.delete(userId);
        users.set(userId, status);
      }
      sent.push(resolve);
      if (!busy) schedule();
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
