// The metrics rollups' triggers (decision 0038) are installed at every start unless this very script already
// is: a restart (or a test server copied from the template) skips the statements, while a database missing
// a trigger, with one disabled, or with an earlier version's functions gets the script again.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client.ts';
import { rowsOf } from '../../server/db/rows.ts';
import { installMetricRollups } from '../../server/metrics/rollup-triggers.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';

const TRIGGERS = [
  'metric_messages',
  'metric_channels',
  'metric_members',
  'metric_channel_members',
  'metric_visits_counted',
  'metric_visits',
  'metric_institutions',
];

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await db.execute(query))[0] as T;
}

/** Enabled rollup triggers by name, each with its oid (a trigger made again gets a new one). */
async function triggers(db: Db): Promise<Map<string, string>> {
  const rows = rowsOf<{ name: string; oid: string }>(
    await db.execute(sql`select tgname as name, oid::text as oid from pg_trigger
      where not tgisinternal and tgenabled <> 'D' and tgname like 'metric\\_%'`),
  );
  return new Map(rows.map((r) => [r.name, r.oid]));
}

/** The row version of the quarter function: `create or replace` writes a new one. */
const quarterFunction = (db: Db) =>
  one<{ xmin: string; source: string }>(
    db,
    sql`select xmin::text as xmin, prosrc as source from pg_proc where proname = 'metric_quarter'`,
  );

describe.each(databases)('metric rollup installation at start (%s)', (kind) => {
  let t: TestServer;
  let db: Db;

  beforeAll(async () => {
    t = await startTestServer(kind);
    db = t.ctx.db;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a start over what this version installed changes nothing', async () => {
    const before = { triggers: await triggers(db), quarter: await quarterFunction(db) };
    expect([...before.triggers.keys()].sort()).toEqual([...TRIGGERS].sort());
    await installMetricRollups(db);
    expect(await triggers(db)).toEqual(before.triggers);
    expect((await quarterFunction(db)).xmin).toBe(before.quarter.xmin);
  });

  it('a start puts back a trigger that was dropped or disabled', async () => {
    await db.execute(sql`drop trigger metric_messages on messages`);
    await db.execute(sql`alter table visits disable trigger metric_visits`);
    expect((await triggers(db)).has('metric_messages')).toBe(false);
    await installMetricRollups(db);
    expect([...(await triggers(db)).keys()].sort()).toEqual([...TRIGGERS].sort());
  });

  it("a start replaces an earlier version's functions", async () => {
    await db.execute(sql`create or replace function metric_quarter(t timestamptz) returns timestamptz
      language sql immutable parallel safe as $$ select t $$`);
    await db.execute(sql`comment on function metric_messages_trigger() is 'lantern metric rollups 0000'`);
    await installMetricRollups(db);
    expect((await quarterFunction(db)).source).toContain('floor(extract(epoch from t) / 900)');
    // And it is now this version's: the next start skips it.
    const { xmin } = await quarterFunction(db);
    await installMetricRollups(db);
    expect((await quarterFunction(db)).xmin).toBe(xmin);
  });
});
