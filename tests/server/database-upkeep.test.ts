// The embedded database's upkeep (server/db/upkeep.ts, decision 0073) on a real PGlite with the app's
// schema: PGlite runs no autovacuum, so without a pass deleted rows are never reclaimed and the planner has
// no statistics. Each test shows the state without a pass next to the state after one.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../server/db/client.ts';
import { sessions, users } from '../../server/db/schema.ts';
import { startUpkeep, tablesDue, upkeepOnce } from '../../server/db/upkeep.ts';
import { PGLITE_TEMPLATE_ENV } from '../database-templates.ts';

let database: Database;
let client: PGlite;

beforeEach(async () => {
  // The run's migrated database, copied (tests/database-templates.ts).
  const file = process.env[PGLITE_TEMPLATE_ENV];
  database = await openDatabase({
    dbDir: 'memory://',
    pgliteTemplate: file ? new Blob([readFileSync(file)]) : undefined,
  });
  client = (database.db as unknown as { $client: PGlite }).$client;
});

afterEach(async () => {
  await database.close();
});

/** One person with `count` sessions (devices), as sign-ins leave them. */
async function signIns(count: number): Promise<void> {
  const userId = randomUUID();
  await database.db.insert(users).values({ id: userId, email: `${userId}@example.com`, name: 'Ines' });
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, () => ({
      id: randomUUID(),
      userId,
      tokenHash: randomUUID(),
    }));
    await database.db.insert(sessions).values(rows);
  }
}

const tableBytes = async (table: string) =>
  Number((await client.query<{ size: string }>(`SELECT pg_table_size('${table}') AS size`)).rows[0]?.size);

const estimatedRows = async (table: string) => {
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `EXPLAIN (FORMAT JSON) SELECT * FROM ${table}`,
  );
  return rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'];
};

describe('embedded database upkeep (PGlite)', () => {
  it('reclaims deleted rows: a table refilled after a purge stays its size, where without a pass it doubles', async () => {
    await signIns(3_000);
    const full = await tableBytes('sessions');
    await database.db.execute(sql`DELETE FROM sessions`);
    await signIns(3_000);
    // Nothing reclaimed the purged rows: the refill took new pages (PGlite runs no autovacuum).
    expect(await tableBytes('sessions')).toBeGreaterThan(full * 1.8);

    await database.db.execute(sql`DELETE FROM sessions`);
    const done = await upkeepOnce(client);
    expect(done).toContainEqual({ table: 'sessions', vacuum: true, analyze: true });
    await signIns(3_000);
    // The refill went into the reclaimed space: one fill's worth, not two.
    expect(await tableBytes('sessions')).toBeLessThanOrEqual(full * 1.1);
  });

  it('gives the planner statistics: after a pass it expects the rows a table holds', async () => {
    await signIns(2_000);
    // Never analyzed: a guess from the table's pages.
    expect(await estimatedRows('sessions')).not.toBe(2_000);
    await upkeepOnce(client);
    expect(await estimatedRows('sessions')).toBe(2_000);
  });

  it('leaves a table alone until enough of it has changed, as autovacuum would', async () => {
    await signIns(2_000);
    await upkeepOnce(client);
    expect(await tablesDue(client)).toEqual([]);
    // Ten of 2,000 rows: below the thresholds (50 + 10 % to analyze, 50 + 20 % of dead rows to vacuum).
    await database.db.execute(
      sql`UPDATE sessions SET last_used_at = now() WHERE id IN (SELECT id FROM sessions LIMIT 10)`,
    );
    expect((await tablesDue(client)).map((t) => t.table)).not.toContain('sessions');
    await database.db.execute(
      sql`UPDATE sessions SET last_used_at = now() WHERE id IN (SELECT id FROM sessions LIMIT 500)`,
    );
    expect(await tablesDue(client)).toContainEqual({ table: 'sessions', vacuum: true, analyze: true });
  });

  it('runs on its own every interval, and its stop waits for the pass in flight', async () => {
    await signIns(1_000);
    const reported: string[] = [];
    const stop = startUpkeep(
      client,
      {
        debug: (o) => reported.push((o as { table: string }).table),
        info: (o) => reported.push((o as { table: string }).table),
        warn: () => {},
      },
      50,
    );
    await expect.poll(() => reported, { timeout: 10_000 }).toContain('sessions');
    await stop();
    expect(await estimatedRows('sessions')).toBe(1_000);
  });
});
