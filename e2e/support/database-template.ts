// Playwright global set-up: one migrated PGlite data directory, copied into each spec's server before its
// first start, and one secrets.json beside it. initdb and the migrations are 2–4 s of every server start on
// this machine and the secrets' keys (RSA for the LTI tool, the push keys) about 0.8 s of blocking CPU; a
// copy of either is a fraction of that. The server still runs the migrator at start and finds them applied;
// generating secrets is tested by the server suite (tests/server/security-secrets.test.ts and others).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { installMetricRollups } from '../../server/metrics/rollup-triggers.ts';
import { loadSecrets } from '../../server/secrets.ts';

export const E2E_PGLITE_TEMPLATE_ENV = 'LANTERN_E2E_PGLITE_TEMPLATE';
export const E2E_SECRETS_TEMPLATE_ENV = 'LANTERN_E2E_SECRETS';

export default async function setup(): Promise<() => void> {
  const root = mkdtempSync(path.join(tmpdir(), 'lantern-e2e-template-'));
  const dir = path.join(root, 'db');
  const database = await openDatabase({ dbDir: dir });
  await installMetricRollups(database.db);
  // template0 and template1 are a third of the directory, copied for every server; PGlite never creates a
  // database from them.
  for (const name of ['template0', 'template1']) {
    await database.db.execute(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await database.db.execute(`DROP DATABASE ${name}`);
  }
  await database.close();
  process.env[E2E_PGLITE_TEMPLATE_ENV] = dir;
  await loadSecrets(root);
  process.env[E2E_SECRETS_TEMPLATE_ENV] = path.join(root, 'secrets.json');
  return () => rmSync(root, { recursive: true, force: true });
}
