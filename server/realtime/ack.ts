// One wrapper for every client event: parse the payload with its zod schema, run the handler, and answer
// through the acknowledgement. Whatever happens, the connection and the server carry on.
import type { Logger } from 'pino';
import { ZodError, type z } from 'zod';
import type { AckError, ClientToServerEvents } from '../../schemas/protocol/index.ts';
import { HttpError } from '../errors.ts';
import { zodMessage } from '../http/errors.ts';
import { reportError } from '../operations/error-reporting.ts';
import { EVENT_LIMITS, formatBytes } from '../request-limits.ts';
import type { LanternSocket } from './types.ts';

type AckFn = (response: unknown) => void;

/** A client event's listener, called by socket.io with the socket as `this`. */
export type SocketListener = (this: LanternSocket, ...args: unknown[]) => Promise<void>;
/** Every client event's shared listener, by event: attached to each socket as it connects. */
export type SocketHandlers = Partial<Record<keyof ClientToServerEvents, SocketListener>>;

/** Attaches the shared listeners to one socket. */
export function attachHandlers(socket: LanternSocket, handlers: SocketHandlers): void {
  for (const [event, listener] of Object.entries(handlers))
    socket.on(event as keyof ClientToServerEvents, listener as never);
}

/**
 * Refuses a payload larger than its event takes (server/request-limits.ts) before the schema examines it.
 * socket.io has already parsed it, within its own cap on any message; this keeps each event to its size.
 */
function requireWithinLimit(event: keyof ClientToServerEvents, payload: unknown): void {
  const limit = EVENT_LIMITS[event];
  const bytes = payload === undefined ? 0 : Buffer.byteLength(JSON.stringify(payload) ?? '');
  if (bytes > limit)
    throw new HttpError(413, `This request is too large: it may carry at most ${formatBytes(limit)}.`);
}

function ackErrorMessage(err: unknown, log: Logger, event: string): string {
  if (err instanceof HttpError && err.statusCode < 500) return err.message;
  if (err instanceof ZodError) return zodMessage(err);
  log.error({ err, event }, 'socket event failed');
  reportError(err, { event });
  return 'An error occurred';
}

/** Whether the same event may succeed later: the server failed or was busy, rather than refused it. */
function isRetryable(err: unknown): boolean {
  if (err instanceof HttpError) return err.statusCode >= 500 || err.statusCode === 429;
  return !(err instanceof ZodError);
}

/**
 * A listener for `event`, one function shared by every socket: socket.io calls it with the socket as
 * `this`, and `run` reads the caller from `socket.data` (19 closures per socket were most of a socket's
 * memory). A client may omit the acknowledgement (or send only a callback): neither may throw. Validation
 * and permission failures answer {error:{message}}; unexpected ones are logged and answered 'An error
 * occurred'.
 */
export function acknowledged<S extends z.ZodType, R>(
  log: Logger,
  event: keyof ClientToServerEvents,
  schema: S,
  run: (socket: LanternSocket, payload: z.infer<S>) => Promise<R>,
): SocketListener {
  return async function listener(this: LanternSocket, ...args: unknown[]) {
    const last = args.at(-1);
    const reply: AckFn = typeof last === 'function' ? (last as AckFn) : () => {};
    const payload = typeof args[0] === 'function' ? undefined : args[0];
    try {
      requireWithinLimit(event, payload);
      const parsed = schema.parse(payload);
      reply(await run(this, parsed));
    } catch (err) {
      const message = ackErrorMessage(err, log, event);
      const response: AckError = { error: isRetryable(err) ? { message, retryable: true } : { message } };
      reply(response);
    }
  };
}
