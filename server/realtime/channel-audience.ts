// Who a channel broadcast may reach on this node: the socket's user must still be a member of the channel
// by the database, not merely still in the room. Room membership can lag the truth: a leave published
// through Redis can be lost (the socket stays in the room on its node), and a join checked just before a
// removal lands just after it. Every node re-checks its own sockets at delivery, so neither reaches a
// removed member.
//
// How: channel broadcasts carry a marker room in their `except` list (it never has sockets, so it
// excludes nobody by itself, and it travels through the Redis adapter with the broadcast). This node's
// adapter delivers marked broadcasts only to sockets whose user is in the channel's member set, loaded
// from the database and reloaded when it is older than FRESH_MS or a socket joined or left the room here.
// A reload first reads the channel's access_version (raised by the database's triggers on every change of
// membership, decision 0056): when it has not moved, the set read with it is still the truth and is
// trusted again without reading the members.
// Deliveries that wait for a load keep their order. This relies on socket.io-adapter 2.5's `apply`
// (every local delivery of a broadcast goes through it); tests/server/security-channel-delivery.test.ts
// fails if that stops being true.
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { channelMembers, channels, members } from '../db/schema.ts';
import type { LanternServer } from './types.ts';

/**
 * How long a loaded member set is trusted when no join or leave was seen here. It bounds how long a
 * removal whose leave was lost on this node can go unnoticed, and costs one small query per active
 * channel per node per period.
 */
const FRESH_MS = 1_000;
/** From this age on, a delivery still uses the set but starts reading it again. */
const REFRESH_AHEAD_MS = FRESH_MS / 2;

const CHANNEL_ROOM = 'channel:';
const MARK = 'audience:';

/** The marker a channel broadcast carries in `except` (server/realtime/broadcaster.ts). */
export const audienceMark = (channelId: string) => `${MARK}${channelId}`;

interface Delivering {
  data: { userId?: string };
  leave(room: string): unknown;
}
type Deliver = (socket: Delivering) => void;
interface Options {
  rooms: Set<string>;
  except?: Set<string>;
}
/** The adapter method every local delivery goes through (private in socket.io-adapter's types). */
interface Applying {
  apply(opts: Options, callback: Deliver): void;
}

interface Audience {
  userIds: Set<string>;
  /** The channel's access_version read just before the member set; null before the first read. */
  accessVersion: number | null;
  /** When the member set was read; 0 when a join or leave here made it stale. */
  loadedAt: number;
  /** Bumped by every join or leave here, so a load that raced one is not trusted. */
  version: number;
  loading: boolean;
  /** Deliveries waiting for a load, in the order they arrived. */
  waiting: Array<() => void>;
}

function markedChannel(except: Set<string> | undefined): string | null {
  if (!except) return null;
  for (const room of except) if (room.startsWith(MARK)) return room.slice(MARK.length);
  return null;
}

export function installChannelAudience(io: LanternServer, db: Db, log: Logger): void {
  const adapter = io.of('/').adapter;
  const audiences = new Map<string, Audience>();

  const audienceOf = (channelId: string): Audience => {
    let a = audiences.get(channelId);
    if (!a) {
      a = { userIds: new Set(), accessVersion: null, loadedAt: 0, version: 0, loading: false, waiting: [] };
      audiences.set(channelId, a);
    }
    return a;
  };

  const roomChanged = (room: string) => {
    if (!room.startsWith(CHANNEL_ROOM)) return;
    const a = audiences.get(room.slice(CHANNEL_ROOM.length));
    if (!a) return;
    a.loadedAt = 0;
    a.version += 1;
  };
  adapter.on('join-room', roomChanged);
  adapter.on('leave-room', roomChanged);
  // No socket of this node is left in the room: nothing to keep.
  adapter.on('delete-room', (room: string) => {
    if (!room.startsWith(CHANNEL_ROOM)) return;
    const channelId = room.slice(CHANNEL_ROOM.length);
    if (!audiences.get(channelId)?.loading) audiences.delete(channelId);
  });

  /** The channel's access_version, or null when the channel is gone. */
  const accessVersionOf = async (channelId: string): Promise<number | null> => {
    const [row] = await db
      .select({ accessVersion: channels.accessVersion })
      .from(channels)
      .where(eq(channels.id, channelId));
    return row ? Number(row.accessVersion) : null;
  };

  // The version is read before the members: a change committed between the two shows as a newer version
  // at the next check (a reread), never as an old version beside an older member set.
  const read = async (channelId: string, a: Audience): Promise<void> => {
    const accessVersion = await accessVersionOf(channelId);
    if (accessVersion !== null && accessVersion === a.accessVersion) return;
    const rows = await db
      .select({ userId: members.userId })
      .from(channelMembers)
      .innerJoin(members, eq(members.id, channelMembers.memberId))
      .where(eq(channelMembers.channelId, channelId));
    a.userIds = new Set(rows.map((r) => r.userId));
    a.accessVersion = accessVersion;
  };

  const load = (channelId: string, a: Audience) => {
    a.loading = true;
    const startedAt = Date.now();
    const version = a.version;
    let failed = false;
    read(channelId, a)
      .then(
        () => {
          // A join or leave seen while reading may not be in the rows: read again before trusting them.
          a.loadedAt = a.version === version ? startedAt : 0;
        },
        (err: unknown) => {
          failed = true;
          log.error({ err, channelId }, 'channel audience could not be read; live delivery skipped');
        },
      )
      .finally(() => {
        a.loading = false;
        // Fail closed: nobody here gets these events; clients catch up by sequence when they next sync.
        if (failed) a.waiting = [];
        else if (a.loadedAt > 0) for (const run of a.waiting.splice(0)) run();
        else if (a.waiting.length > 0) load(channelId, a);
        if (!a.loading && !adapter.rooms.has(`${CHANNEL_ROOM}${channelId}`)) audiences.delete(channelId);
      });
  };

  const send = (channelId: string, a: Audience, sockets: Delivering[], deliver: Deliver) => {
    const room = `${CHANNEL_ROOM}${channelId}`;
    for (const socket of sockets) {
      const userId = socket.data.userId;
      if (userId && a.userIds.has(userId)) deliver(socket);
      // Left behind by a lost leave or a racing join: take it out so later broadcasts skip it cheaply.
      else socket.leave(room);
    }
  };

  const applying = adapter as unknown as Applying;
  const apply = applying.apply.bind(adapter);
  applying.apply = (opts, deliver) => {
    const channelId = markedChannel(opts.except);
    if (channelId === null) return apply(opts, deliver);
    const sockets: Delivering[] = [];
    apply(opts, (socket) => sockets.push(socket));
    if (sockets.length === 0) return;
    const a = audienceOf(channelId);
    const age = Date.now() - a.loadedAt;
    const fresh = a.loadedAt > 0 && age < FRESH_MS;
    if (fresh && a.waiting.length === 0) {
      // Reread ahead of time while deliveries keep going, so a busy channel's deliveries never wait
      // behind a read (which on PGlite queues behind the commits in flight).
      if (age >= REFRESH_AHEAD_MS && !a.loading) load(channelId, a);
      return send(channelId, a, sockets, deliver);
    }
    a.waiting.push(() => send(channelId, a, sockets, deliver));
    if (!a.loading) load(channelId, a);
  };
}
