// `npm run bench:metrics`: every /metric/* endpoint over a workspace with 1,000,000 messages in 300
// channels across two years (200 members, 100,000 visits), on PGlite or, with DATABASE_URL, PostgreSQL.
// The history is written in bulk by SQL generate_series with the rollup triggers off, then the rollups are
// rebuilt once (server/metrics/rebuild.ts), as an import would. Each endpoint is asked METRICS_RUNS times
// (30) for the 30-day and the all-time window; its p95 is printed next to the floor measured in the same
// run: one indexed count(*) of the window's messages, the least a page that counted messages could do.
// Env: METRICS_MESSAGES (1000000), METRICS_RUNS (30).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { rebuildMetricRollups } from '../server/metrics/rebuild.ts';
import { startLantern } from './lantern-fixture.ts';

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const total = envInt('METRICS_MESSAGES', 1_000_000);
const runs = envInt('METRICS_RUNS', 30);
const CHANNELS = 300;
const MEMBERS = 200;
const VISITS = 100_000;
const CHUNK = 100_000;
const DAY = 86_400_000;
const ZONE = 'Asia/Kathmandu';

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main(): Promise<void> {
  const lantern = await startLantern(MEMBERS, CHANNELS);
  const { db, target } = lantern;
  const inst = target.institutionId;
  console.log(
    `metrics bench on ${lantern.database}: ${total.toLocaleString('en-US')} messages, ${CHANNELS} channels, ${MEMBERS} members, two years`,
  );
  try {
    let t0 = performance.now();
    // The search index is not what is measured and would dominate a bulk load: this database is thrown away.
    await db.execute(sql`drop index if exists messages_search_idx`);
    // The floor's index: what a direct count would need.
    await db.execute(
      sql`create index if not exists bench_messages_institution_created_idx on messages (institution_id, created_at)`,
    );
    await db.execute(sql`update channels set created_at = now() - random() * interval '730 days',
      type = case when random() < 0.2 then 'private' else 'public' end where institution_id = ${inst}`);
    await db.execute(sql`update members set created_at = now() - random() * interval '730 days'
      where institution_id = ${inst}`);
    // Triggers off for the bulk load (per transaction, so every pooled connection is covered).
    const bulk = (statement: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(statement);
      });
    for (let start = 1; start <= total; start += CHUNK) {
      const end = Math.min(total, start + CHUNK - 1);
      await bulk(sql`
        insert into messages (id, gen_id, channel_id, institution_id, member_id, content, created_at, seq,
          created_seq, reply_to, reactions, deleted_at)
        select 'bm' || i, 'bg' || i, ch.ids[1 + (i % ${CHANNELS})], ${inst}, mem.ids[1 + ((i * 7) % ${MEMBERS})],
          '<p>Message number ' || i || ' about the quarterly plan</p>',
          now() - random() * interval '730 days', i, i,
          case when i % 20 = 0 and i > 100 then 'bm' || (i - 37) end,
          case when i % 10 = 0 then jsonb_build_array(jsonb_build_object('emoji', '👍', 'memberIds',
            jsonb_build_array(mem.ids[1 + (i % ${MEMBERS})], mem.ids[1 + ((i + 1) % ${MEMBERS})])))
            else '[]'::jsonb end,
          case when i % 100 = 0 then now() end
        from generate_series(${start}::int, ${end}::int) i,
          (select array_agg(id order by id) as ids from channels where institution_id = ${inst}) ch,
          (select array_agg(id order by id) as ids from members where institution_id = ${inst}) mem`);
      process.stdout.write(`  seeded ${end.toLocaleString('en-US')} messages\r`);
    }
    await bulk(sql`
      insert into visits (id, institution_id, visitor_member_id, target_type, target_id, counted, created_at)
      select 'bv' || i, ${inst}, mem.ids[1 + (i % ${MEMBERS})],
        case when i % 10 = 0 then 'member' else 'channel' end,
        case when i % 10 = 0 then mem.ids[1 + ((i * 13) % ${MEMBERS})] else ch.ids[1 + ((i * 11) % ${CHANNELS})] end,
        true, now() - random() * interval '730 days'
      from generate_series(1, ${VISITS}) i,
        (select array_agg(id order by id) as ids from channels where institution_id = ${inst}) ch,
        (select array_agg(id order by id) as ids from members where institution_id = ${inst}) mem`);
    console.log(`\nseeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    t0 = performance.now();
    await rebuildMetricRollups(db, inst);
    console.log(`rollups rebuilt in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    // Visibility map and statistics, so the floor's count can be an index-only scan.
    await db.execute(sql`vacuum analyze`);

    const now = Date.now();
    const windows = [
      { name: '30d', from: new Date(Math.floor((now - 30 * DAY) / 900_000) * 900_000) },
      { name: 'all', from: null },
    ];
    const endpoints = [
      'stats',
      'engaging-messages',
      'latest-channels',
      'growing-channels',
      'most-visited-channels',
      'most-visited-groups',
      'most-visited-members',
      'channel-creation-trend',
      'hourly-activity-heatmap',
    ];
    const token = target.tokens[0] as string;
    const to = new Date(Math.ceil(now / 900_000) * 900_000).toISOString();
    console.log('\nendpoint                   window      p95      floor p95   ratio');
    for (const w of windows) {
      const floorTimes: number[] = [];
      for (let i = 0; i < runs + 3; i++) {
        const s = performance.now();
        await db.execute(sql`select count(*) from messages where institution_id = ${inst}
          and created_at >= ${(w.from ?? new Date(0)).toISOString()} and created_at < ${to}`);
        if (i >= 3) floorTimes.push(performance.now() - s);
      }
      const floor = p95(floorTimes);
      for (const e of endpoints) {
        const period = e === 'channel-creation-trend' ? (w.from ? '&period=day' : '&period=week') : '';
        const url = `${target.url}/api/institutions/${inst}/metric/${e}?timezone=${encodeURIComponent(ZONE)}&toDate=${to}${w.from ? `&fromDate=${w.from.toISOString()}` : ''}${period}`;
        const times: number[] = [];
        for (let i = 0; i < runs + 3; i++) {
          const s = performance.now();
          // A kept-alive socket the server closes as it is reused (after the slow floor) is retried once.
          const ask = () => fetch(url, { headers: { authorization: `Bearer ${token}` } });
          const res = await ask().catch(ask);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${e}: ${res.status}`);
          if (i >= 3) times.push(performance.now() - s);
        }
        const p = p95(times);
        console.log(
          `${e.padEnd(26)} ${w.name.padEnd(6)} ${ms(p).padStart(10)} ${ms(floor).padStart(12)} ${(p / floor).toFixed(2).padStart(7)}`,
        );
      }
    }
  } finally {
    await lantern.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
