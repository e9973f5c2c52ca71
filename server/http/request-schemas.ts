// The route table's body and query schemas (schemas/protocol/routes.ts) are checked before any handler runs,
// so what the OpenAPI document promises is what the server accepts: a request the table's schemas refuse
// is a 400 naming the field, whatever the handler would have done with it.
import type { FastifyInstance } from 'fastify';
import { BYTES, type RestRoute, restRoutes } from '../../schemas/protocol/index.ts';
import { zodRefusal } from './errors.ts';

const byMethodAndPath = new Map<string, RestRoute>(
  Object.values(restRoutes).map((route: RestRoute) => [`${route.method} ${route.path}`, route]),
);

export function installRequestSchemas(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const route = byMethodAndPath.get(`${request.method} ${request.routeOptions.url}`);
    // Uploads read their own stream and refuse bad addresses by closing the connection (server/http/files.ts).
    if (!route || route.body === BYTES) return;
    if (route.query) {
      const result = route.query.safeParse(request.query ?? {});
      if (!result.success) throw zodRefusal(result.error);
    }
    if (route.body) {
      const result = route.body.safeParse(request.body);
      if (!result.success) throw zodRefusal(result.error);
    }
  });
}
