// The typed socket.io server and socket Lantern uses, and what each connection carries after auth.
import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../schemas/protocol/index.ts';

/** Set by the auth middleware; visible to fetchSockets() on every node. */
export interface SocketData {
  userId: string;
  sessionId: string;
  institutionIds: string[];
}

type NoServerEvents = Record<string, never>;
export type LanternServer = Server<ClientToServerEvents, ServerToClientEvents, NoServerEvents, SocketData>;
export type LanternSocket = Socket<ClientToServerEvents, ServerToClientEvents, NoServerEvents, SocketData>;
