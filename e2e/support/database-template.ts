// Playwright global set-up: one migrated PGlite data directory, copied into each spec's server before its
// first start. initdb and the migrations are 2–4 s of every server start on this machine; a copy of the
// directory is a fraction of that. The server still runs the migrator at start and finds them applied.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { installMetricRollups } from '../../server/metrics/rollup-triggers.ts';

export const E2E_PGLITE_TEMPLATE_ENV = 'LANTERN_E2E_PGLITE_TEMPLATE';

export default async function setup(): Promise<void> {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'lantern-e2e-template-')), 'db');
  const database = await openDatabase({ dbDir: dir });
  await installMetricRollups(database.db);
  await database.close();
  process.env[E2E_PGLITE_TEMPLATE_ENV] = dir;
}
