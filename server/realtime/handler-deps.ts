// What the socket event handlers are given: the message services' context plus a logger.
import type { Logger } from 'pino';
import type { MessagesContext } from '../messages/context.ts';

export interface HandlerDeps extends MessagesContext {
  log: Logger;
}
