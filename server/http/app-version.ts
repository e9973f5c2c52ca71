// GET /api/version (open before sign-in): the client build this server serves and its route rules (spec §2,
// §7 Other). Open tabs poll it and compare with their own build; the socket sends the same build id on every
// connection (server/realtime). Decision 0043.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppVersion, buildId as buildIdSchema } from '../../schemas/protocol/index.ts';
import type { Config } from '../config.ts';

/** The file the vite build writes next to index.html (vite.config.ts). */
export const VERSION_FILE = 'version.json';

const known = new WeakMap<object, string | null>();

/**
 * BUILD_ID when set, else the build id in CLIENT_DIR/version.json, else null (no built client: development).
 * Read once per configuration: a deploy replaces the process along with the files.
 */
export function servedBuildId(config: Pick<Config, 'BUILD_ID' | 'CLIENT_DIR'>): string | null {
  const cached = known.get(config);
  if (cached !== undefined) return cached;
  let id: string | null = config.BUILD_ID ?? null;
  if (id === null) {
    try {
      const file = JSON.parse(readFileSync(path.join(config.CLIENT_DIR, VERSION_FILE), 'utf8')) as unknown;
      const parsed = buildIdSchema.safeParse((file as { buildId?: unknown } | null)?.buildId);
      id = parsed.success ? parsed.data : null;
    } catch {
      id = null;
    }
  }
  known.set(config, id);
  return id;
}

export function registerAppVersionRoute(app: FastifyInstance, config: Config): void {
  const answer: AppVersion = { buildId: servedBuildId(config), routeRules: config.ROUTE_RULES };
  app.get('/api/version', async (_request, reply) => {
    // Polled to find out about a deploy: a cached answer would hide it.
    reply.header('cache-control', 'no-cache');
    return answer;
  });
}
