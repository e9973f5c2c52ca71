// How failures look on the wire: every error becomes {statusCode, error, message, requestId}. Known errors
// keep their status and message; bad input is a 400 whose sentence names the field in words; anything
// unexpected is logged and answered with a bare 500 so that internals never reach the client.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { plainIssue } from '../../schemas/plain-error.ts';
import type { ErrorBody } from '../../schemas/protocol/index.ts';
import { HttpError, invalidFields } from '../errors.ts';
import { reportError } from '../operations/error-reporting.ts';
import { formatBytes } from '../request-limits.ts';

export function errorBody(
  statusCode: number,
  message: string,
  requestId?: string,
  fields?: Record<string, string>,
): ErrorBody {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(requestId === undefined ? {} : { requestId }),
    ...(fields === undefined ? {} : { fields }),
  };
}

const send = (reply: FastifyReply, statusCode: number, message: string, fields?: Record<string, string>) =>
  reply.status(statusCode).send(errorBody(statusCode, message, reply.request.id, fields));

/** The first zod issue as a sentence naming its field in words, never schema text (schemas/plain-error.ts). */
export function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  return issue ? plainIssue(issue) : 'This request is not valid.';
}

/** The first sentence per field path ("name", "emails.1"); undefined when no issue names a field. */
export function zodFields(error: ZodError): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.filter((k) => typeof k === 'string' || typeof k === 'number').join('.');
    if (key && !(key in fields)) fields[key] = plainIssue(issue);
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** A zod refusal as the 400 the client reads: the first sentence, and one per field. */
export const zodRefusal = (error: ZodError) => invalidFields(zodMessage(error), zodFields(error));

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    if (err instanceof HttpError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
      return send(reply, err.statusCode, err.message, err.fields);
    }
    if (err instanceof ZodError) return send(reply, 400, zodMessage(err), zodFields(err));
    if ('code' in err && err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = request.routeOptions.bodyLimit;
      return send(reply, 413, `This request is too large: it may carry at most ${formatBytes(limit)}.`);
    }
    // Fastify's own client errors: schema validation, unparsable JSON, body too large (413), bad media type.
    const status = 'statusCode' in err ? err.statusCode : undefined;
    if (typeof status === 'number' && status >= 400 && status < 500) return send(reply, status, err.message);
    request.log.error({ err }, 'request failed');
    reportError(err, {
      method: request.method,
      url: request.url,
      headers: request.headers,
      requestId: request.id,
      route: request.routeOptions.url,
    });
    return send(reply, 500, 'An error occurred');
  });
}
