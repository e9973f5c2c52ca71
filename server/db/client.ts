// Opens the database: PGlite under DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set. Both get
// the same Drizzle schema and the same committed migrations, applied at start-up.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import * as schema from './schema.ts';
import { startUpkeep, type UpkeepLog } from './upkeep.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const silent: UpkeepLog = { debug: () => {}, info: () => {}, warn: () => {} };

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dbDir: string;
  /**
   * A dumped PGlite data directory (`dumpDataDir`) an in-memory database starts from instead of running
   * initdb: tests start hundreds of servers, and initdb plus the migrations is most of each start.
   */
  pgliteTemplate?: Blob | undefined;
  onIdleError?: (error: Error) => void;
  /** Where the embedded database's upkeep (./upkeep.ts) reports what it did. */
  log?: UpkeepLog;
}): Promise<Database> {
  if (opts.databaseUrl) {
    // Loaded only here: a server on the embedded database never needs the PostgreSQL driver (decision 0075).
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client whose connection the server ends (restart, failover, DROP DATABASE … FORCE) emits
    // 'error' on the pool; unhandled, that would crash the process. The pool replaces the client itself.
    pool.on('error', (error) => opts.onIdleError?.(error));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  // 'memory://' keeps PGlite in memory (tests); anything else is a directory on disk.
  if (!opts.dbDir.startsWith('memory://')) mkdirSync(opts.dbDir, { recursive: true });
  const client = await PGlite.create(
    opts.dbDir,
    opts.pgliteTemplate && opts.dbDir.startsWith('memory://') ? { loadDataDir: opts.pgliteTemplate } : {},
  );
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  // PGlite has no autovacuum: without this, dead rows are never reclaimed and no table gets statistics.
  const stopUpkeep = startUpkeep(client, opts.log ?? silent);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: async () => {
      await stopUpkeep();
      await client.close();
    },
  };
}
