// Health for load balancers and orchestrators, outside /api and without a session: /healthz says the process
// answers; /readyz says it can serve: the database answers, the committed migrations are applied, and Redis
// answers when REDIS_URL is set. Both name only what failed, never an address or an error's text.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { migrationsFolder } from '../db/client.ts';

/** A check that has not answered by then counts as failed: a probe must not hang with the database. */
const CHECK_TIMEOUT_MS = 2_000;

type CheckResult = 'ok' | 'failed' | 'not configured';

export interface ReadinessDeps {
  db: Db;
  /** Pings Redis; absent without REDIS_URL. */
  pingRedis?: () => Promise<unknown>;
}

async function check(run: () => Promise<boolean>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([run(), timeout])) ? 'ok' : 'failed';
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/** The `when` of the newest committed migration: what drizzle records as created_at once it is applied. */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((e) => e.when));
}

export function registerHealthRoutes(app: FastifyInstance, deps: ReadinessDeps): void {
  const expected = newestMigration();
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (_request, reply) => {
    const [database, migrations, redis] = await Promise.all([
      check(async () => {
        await deps.db.execute(sql`select 1`);
        return true;
      }),
      check(async () => {
        const result = await deps.db.execute(
          sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
        );
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
          newest: string | number | null;
        }[];
        return Number(rows[0]?.newest ?? 0) >= expected;
      }),
      deps.pingRedis
        ? check(async () => {
            await deps.pingRedis?.();
            return true;
          })
        : Promise.resolve<CheckResult>('not configured'),
    ]);
    const ready = database === 'ok' && migrations === 'ok' && redis !== 'failed';
    reply.header('cache-control', 'no-store');
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not ready',
      checks: { database, migrations, redis },
    });
  });
}
