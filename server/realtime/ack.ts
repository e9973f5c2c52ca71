// One wrapper for every client event: parse the payload with its zod schema, run the handler, and answer
// through the acknowledgement. Whatever happens, the connection and the server carry on.
import type { Logger } from 'pino';
import { ZodError, type z } from 'zod';
import type { AckError, ClientToServerEvents } from '../../schemas/protocol/index.ts';
import { HttpError } from '../errors.ts';
import { zodMessage } from '../http/errors.ts';
import { reportError } from '../operations/error-reporting.ts';
import { EVENT_LIMITS, formatBytes } from '../request-limits.ts';

type AckFn = (response: unknown) => void;

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

/**
 * A listener for `event`. A client may omit the acknowledgement (or send only a callback): neither may
 * throw. Validation and permission failures answer {error:{message}}; unexpected ones are logged and
 * answered 'An error occurred'.
 */
export function acknowledged<S extends z.ZodType, R>(
  log: Logger,
  event: keyof ClientToServerEvents,
  schema: S,
  run: (payload: z.infer<S>) => Promise<R>,
): (payload: unknown, ack?: unknown) => Promise<void> {
  return async (...args: unknown[]) => {
    const last = args.at(-1);
    const reply: AckFn = typeof last === 'function' ? (last as AckFn) : () => {};
    const payload = typeof args[0] === 'function' ? undefined : args[0];
    try {
      requireWithinLimit(event, payload);
      const parsed = schema.parse(payload);
      reply(await run(parsed));
    } catch (err) {
      const response: AckError = { error: { message: ackErrorMessage(err, log, event) } };
      reply(response);
    }
  };
}
