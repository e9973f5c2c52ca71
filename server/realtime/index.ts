// Realtime: socket.io on the app's HTTP server (websocket transport only), authenticated by session
// token, with one handler module per event group, presence, and the Redis adapter when REDIS_URL is set.
import type http from 'node:http';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../schemas/protocol/index.ts';
import { type AppContext, type Broadcaster, rooms } from '../context.ts';
import { servedBuildId } from '../http/app-version.ts';
import type { Metrics } from '../operations/metrics.ts';
import type { RealtimeControls } from '../realtime-controls.ts';
import { SOCKET_MESSAGE_MAX_BYTES } from '../request-limits.ts';
import { attachHandlers } from './ack.ts';
import { createBroadcaster } from './broadcaster.ts';
import { installChannelAudience } from './channel-audience.ts';
import { channelEventHandlers } from './channel-events.ts';
import { eventBudget } from './event-budget.ts';
import { memberActionEventHandlers } from './member-action-events.ts';
import { messageActionEventHandlers } from './message-action-events.ts';
import { messageEventHandlers } from './message-events.ts';
import { installPacedDelivery } from './paced-delivery.ts';
import { createPendingAcks } from './pending-acks.ts';
import { createPresence, institutionRoomsOf } from './presence.ts';
import { installProtocolVersionCheck } from './protocol-version.ts';
import type { RedisAdapter } from './redis-adapter.ts';
import { installSocketAuth } from './socket-auth.ts';
import type { LanternServer, LanternSocket } from './types.ts';
import { visitEventHandlers } from './visit-events.ts';

export interface Realtime extends RealtimeControls {
  broadcast: Broadcaster;
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  /**
   * Refuses new sockets and new events, and waits (at most `maxMs`) until the events already running are
   * acknowledged: a stopping server answers every post it is committing before it disconnects.
   */
  drain(maxMs: number): Promise<void>;
  /** Disconnects this node's sockets and stops the adapter; the HTTP server is left to its owner. */
  close(): Promise<void>;
}

export async function createRealtime(
  httpServer: http.Server,
  deps: Omit<AppContext, 'broadcast' | 'realtime'>,
  metrics: Metrics,
): Promise<Realtime> {
  const { db, log, config } = deps;
  const io: LanternServer = new Server(httpServer, {
    transports: ['websocket'],
    // The largest event (a message at its caps) and its envelope; a larger one closes only that socket.
    maxHttpBufferSize: SOCKET_MESSAGE_MAX_BYTES,
    serveClient: false,
  });

  let redis: RedisAdapter | null = null;
  if (config.REDIS_URL) {
    // Loaded only with REDIS_URL: a single node never needs the adapter or the driver.
    const { connectRedisAdapter } = await import('./redis-adapter.ts');
    redis = await connectRedisAdapter(config.REDIS_URL, log);
    io.adapter(redis.adapter);
    const { uid } = io.of('/').adapter as unknown as { uid: string };
    if (!(await redis.subscribed(uid))) log.warn('Redis adapter not subscribed yet; starting anyway');
  }

  installChannelAudience(io, db, log);
  installPacedDelivery(io);
  const broadcast = createBroadcaster(io);
  const presence = createPresence(io, log);
  const handlerDeps = { db, log, broadcast, config, secrets: deps.secrets };
  let closing = false;
  let draining = false;
  const pendingAcks = createPendingAcks(metrics);
  // Presence work still running (it counts sockets across nodes, then broadcasts): close waits for it, so no
  // broadcast is published through an adapter or Redis client that close has already shut.
  const presenceWork = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const settled = work.then(
      () => {},
      () => {},
    );
    presenceWork.add(settled);
    void settled.then(() => presenceWork.delete(settled));
  };
  const controls: RealtimeControls = {
    onlineUserIds: presence.onlineUserIds,
    joinInstitution: (userId, institutionId) =>
      io.in(rooms.user(userId)).socketsJoin(rooms.institution(institutionId)),
    leaveInstitution: (userId, institutionId, channelIds) =>
      io
        .in(rooms.user(userId))
        .socketsLeave([rooms.institution(institutionId), ...channelIds.map(rooms.channel)]),
    joinChannel: (userId, channelId) => io.in(rooms.user(userId)).socketsJoin(rooms.channel(channelId)),
    leaveChannel: (userId, channelId) => io.in(rooms.user(userId)).socketsLeave(rooms.channel(channelId)),
    // A socket the server disconnects does not reconnect by itself; the person's other devices are not in
    // this room and stay connected.
    disconnectSession: (sessionId) => io.in(rooms.session(sessionId)).disconnectSockets(true),
  };

  // A stopping node takes no new sockets: the client's reconnection finds another node or the restarted one.
  io.use((_socket, next) => next(draining ? new Error('The server is restarting') : undefined));
  // Before auth: an outdated client is asked to reload, not told its session is invalid.
  installProtocolVersionCheck(io, config.PROTOCOL_MIN_VERSION);
  installSocketAuth(io, db, log, config);

  // One set of listeners for every socket (each reads its caller from socket.data): per-socket closures
  // were most of an idle connection's memory.
  const handlers = {
    ...channelEventHandlers(handlerDeps),
    ...messageEventHandlers(handlerDeps),
    ...messageActionEventHandlers(handlerDeps),
    ...visitEventHandlers(handlerDeps),
    ...memberActionEventHandlers({ ...handlerDeps, realtime: controls }),
  };
  const budget = eventBudget(config);
  const serverBuild = servedBuildId(config);
  // The workspace rooms a socket was in, taken at 'disconnecting' (socket.io empties them before 'disconnect').
  const lastRooms = new WeakMap<LanternSocket, string[]>();
  function onDisconnecting(this: LanternSocket) {
    lastRooms.set(this, institutionRoomsOf(this));
  }
  function onDisconnect(this: LanternSocket) {
    metrics.connectedSockets.dec();
    if (!closing) track(presence.disconnected(this, lastRooms.get(this) ?? []));
    lastRooms.delete(this);
  }

  io.on('connection', (socket) => {
    const { userId, sessionId, institutionIds } = socket.data;
    socket.join([rooms.user(userId), rooms.session(sessionId), ...institutionIds.map(rooms.institution)]);
    budget.install(socket);
    pendingAcks.install(socket);
    metrics.connectedSockets.inc();
    attachHandlers(socket, handlers);
    // A tab on another build learns of the deploy as soon as its socket (re)connects (decision 0043).
    if (serverBuild) socket.emit('serverBuild', { buildId: serverBuild });
    track(presence.connected(socket));
    socket.on('disconnecting', onDisconnecting);
    socket.on('disconnect', onDisconnect);
  });

  return {
    broadcast,
    io,
    ...controls,
    drain(maxMs) {
      draining = true;
      return pendingAcks.drain(maxMs);
    },
    async close() {
      closing = true;
      // Not io.close(): that would also close the HTTP server, which Fastify owns and closes itself.
      io.local.disconnectSockets(true);
      await Promise.all(presenceWork);
      await io.of('/').adapter.close();
      io.engine.close();
      await redis?.close();
    },
  };
}
