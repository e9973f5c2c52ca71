// GET /metrics for Prometheus, outside /api. Off (404) unless METRICS_TOKEN is set; then only a scraper
// sending `Authorization: Bearer <METRICS_TOKEN>` reads it (401 otherwise): the figures say how busy the
// server is and which routes are used, which is nobody else's business. Also times every HTTP answer by
// route pattern (`/api/institutions/:institutionId/...`), never by raw URL.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../operations/metrics.ts';
import { bearerToken } from './auth-hook.ts';
import { errorBody } from './errors.ts';

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpSeconds.observe(
      {
        method: request.method,
        // Unmatched requests (404s of any address) share one label.
        route: request.routeOptions.url ?? 'unmatched',
        status: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', async (request, reply) => {
    if (!token) return reply.status(404).send(errorBody(404, 'Not found', request.id));
    if (!sameToken(bearerToken(request.headers.authorization), token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.status(401).send(errorBody(401, 'The metrics token is missing or wrong', request.id));
    }
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
