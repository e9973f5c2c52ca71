// `npm run bench:ingest`: how many posts per second Lantern acknowledges (each only after its commit)
// with senders in a closed loop, next to the naive durable floor (bench/durable-floor.ts) run on the same
// database in the same run. Two layouts: every client in one channel, and the clients over 20 channels.
// PGlite always; PostgreSQL too when DATABASE_URL is set. Env: INGEST_SENDERS (40), INGEST_LISTENERS (60),
// BENCH_SECONDS per run (10). The load runs in its own process (bench/load-process.ts).
import type { ClosedLoopOptions, ClosedLoopResult } from './closed-loop.ts';
import { startDurableFloor } from './durable-floor.ts';
import { startLantern } from './lantern-fixture.ts';
import type { LoadTarget } from './load.ts';
import { inChildProcess } from './load-process.ts';
import type { ClosedLoopJob } from './load-worker.ts';

const closedLoop = (target: LoadTarget, options: ClosedLoopOptions) =>
  inChildProcess<ClosedLoopJob, ClosedLoopResult>({ kind: 'closed-loop', target, options });

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const senders = envInt('INGEST_SENDERS', 40);
const listeners = envInt('INGEST_LISTENERS', 60);
const seconds = envInt('BENCH_SECONDS', 10);

// A few sockets stand in for many people here, so the per-socket event budget (an abuse limit) is lifted.
const LOAD_ENV = { SOCKET_EVENTS_PER_SECOND: '100000', SOCKET_EVENT_BURST: '100000' };

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function line(name: string, r: ClosedLoopResult): string {
  return [
    name.padEnd(30),
    `acked ${fmt(r.ackedPerSecond).padStart(7)}/s`,
    `ack p50 ${fmt(r.ackP50Ms).padStart(6)} ms`,
    `p99 ${fmt(r.ackP99Ms).padStart(6)} ms`,
    `delivered ${r.deliveries}/${r.expectedDeliveries}`,
    r.ackErrors ? `errors ${r.ackErrors} (first: ${r.firstAckError})` : 'no errors',
  ].join('  ');
}

async function scenario(databaseUrl: string | null, channels: number): Promise<void> {
  const lantern = await startLantern(senders + listeners, channels, LOAD_ENV, databaseUrl);
  try {
    const ours = await closedLoop(lantern.target, { senders, seconds });
    const floorServer = await startDurableFloor(lantern.db);
    let floor: ClosedLoopResult;
    try {
      floor = await closedLoop({ ...lantern.target, url: floorServer.url }, { senders, seconds });
    } finally {
      await floorServer.close();
    }
    const where = `${lantern.database}, ${channels} channel${channels === 1 ? '' : 's'}`;
    console.log(line(`Lantern (${where})`, ours));
    console.log(line(`naive durable floor`, floor));
    console.log(
      `  ratio Lantern/floor: acked/s ×${fmt(ours.ackedPerSecond / floor.ackedPerSecond, 2)}, ack p50 ×${fmt(ours.ackP50Ms / floor.ackP50Ms, 2)}, p99 ×${fmt(ours.ackP99Ms / floor.ackP99Ms, 2)}`,
    );
  } finally {
    await lantern.close();
  }
}

async function main(): Promise<void> {
  console.log(`ingest bench: ${senders} closed-loop senders, ${listeners} listeners, ${seconds} s per run`);
  const databases = [null, ...(process.env.DATABASE_URL ? [process.env.DATABASE_URL] : [])];
  for (const databaseUrl of databases) for (const channels of [1, 20]) await scenario(databaseUrl, channels);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
