// Vitest global set-up: one migrated database to copy, made once per run instead of once per test server.
// A PGlite initdb plus the migrations costs 2–4 s on this machine and the suite starts over a hundred
// servers; a copy costs well under one. PGlite gets a dumped data directory (a file, read by every worker),
// PostgreSQL a template database that CREATE DATABASE … TEMPLATE copies. Each server still runs the
// migrator at start, which finds them applied, so a template can never hide a missing migration.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Db, migrationsFolder, openDatabase } from '../server/db/client.ts';
import * as schema from '../server/db/schema.ts';
import { installMetricRollups } from '../server/metrics/rollup-triggers.ts';
import { loadSecrets } from '../server/secrets.ts';

export const PGLITE_TEMPLATE_ENV = 'LANTERN_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'LANTERN_TEST_POSTGRES_TEMPLATE';
/**
 * A secrets.json every test server starts with: generating one costs an RSA key (the LTI tool's), 0.2 s of
 * blocking CPU per server here. The servers' own generation is tested where it matters
 * (security-secrets, push-keys, static), each on a folder without this file.
 */
export const SECRETS_TEMPLATE_ENV = 'LANTERN_TEST_SECRETS';

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lantern-template-'));
  const client = await PGlite.create('memory://');
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  await installMetricRollups(db as unknown as Db);
  // template0 and template1 are 15 of the dump's 43 MB, loaded into memory by every test server (a fresh page
  // costs here, about 6 ms a MB); nothing creates a database in PGlite, so the copies leave them out.
  for (const name of ['template0', 'template1']) {
    await client.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await client.exec(`DROP DATABASE ${name}`);
  }
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(dir, 'pglite.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  await loadSecrets(dir);
  process.env[SECRETS_TEMPLATE_ENV] = path.join(dir, 'secrets.json');

  let templateName: string | null = null;
  if (process.env.DATABASE_URL) {
    templateName = `lantern_tpl_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${templateName}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${templateName}`;
    const postgres = await openDatabase({ databaseUrl: url.toString(), dbDir: '' });
    await installMetricRollups(postgres.db);
    await postgres.close();
    process.env[POSTGRES_TEMPLATE_ENV] = templateName;
  }

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (templateName) await adminQuery(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
  };
}
