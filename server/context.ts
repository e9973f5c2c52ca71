// What every route, service and socket handler is given: configuration, database, logger, mail, the
// broadcaster and the realtime controls. Built once by createApp (server/app.ts); nothing here is a
// module-level singleton, so tests can run several servers in one process.
import type { Logger } from 'pino';
import type { ServerToClientEvents } from '../schemas/protocol/index.ts';
import type { DocumentReading } from './agents/document-reading.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { RealtimeControls } from './realtime-controls.ts';
import type { Secrets } from './secrets.ts';

export interface Mailer {
  send(mail: { to: string; subject: string; text: string; html?: string }): Promise<void>;
}

type EventArgs<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>;

/** Emits to socket.io rooms; with REDIS_URL set the adapter carries it to every node. */
export interface Broadcaster {
  toChannel<E extends keyof ServerToClientEvents>(channelId: string, event: E, ...args: EventArgs<E>): void;
  toUser<E extends keyof ServerToClientEvents>(userId: string, event: E, ...args: EventArgs<E>): void;
  toInstitution<E extends keyof ServerToClientEvents>(
    institutionId: string,
    event: E,
    ...args: EventArgs<E>
  ): void;
}

export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  mail: Mailer;
  broadcast: Broadcaster;
  /** Socket rooms and presence, kept in step with membership changes (server/realtime-controls.ts). */
  realtime: RealtimeControls;
  /** Keys generated on first start (server/secrets.ts). */
  secrets: Secrets;
  /** Reading documents' text in worker threads, within one set of limits and slots. */
  documents: DocumentReading;
}

/** Room names, shared by whoever joins and whoever emits. */
export const rooms = {
  channel: (id: string) => `channel:${id}`,
  user: (id: string) => `user:${id}`,
  institution: (id: string) => `institution:${id}`,
  /** Every socket opened with one session's token, on any node: revoking it disconnects this room. */
  session: (id: string) => `session:${id}`,
};
