// Request ids: every request gets one, in its log lines (`reqId`), its `X-Request-Id` answer header and the
// `requestId` of its error body, so a person quoting an error leads the operator to the log. A load
// balancer's id is kept when it looks like an id; anything else (long, or with characters a log or a header
// could be tricked with) is replaced by a fresh one.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's genReqId: the incoming X-Request-Id when it is sane, else a random UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
}

/** Sends the id back on every answer (errors, 404s and static files too). */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
