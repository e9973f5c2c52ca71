// `npm run bench`: message delivery through Lantern against the same load on a bare socket.io echo server
// (the floor), both started here on 127.0.0.1. Prints p50/p99 send-to-receive latency, acknowledged posts
// per second, and Lantern's ratio to the floor, for each socket count. The load runs in its own process
// (bench/load-process.ts). Env: BENCH_CLIENTS, a comma-separated list of socket counts (200,500),
// BENCH_RATE total posts/s (50), BENCH_SECONDS per run (15), BENCH_CHANNELS (1: every socket in one), BENCH_WARMUP_SECONDS (2: the
// first seconds' posts are not scored, for either server).
import { startEchoServer } from './echo-server.ts';
import { startLantern } from './lantern-fixture.ts';
import type { LoadOptions, LoadResult, LoadTarget } from './load.ts';
import { inChildProcess } from './load-process.ts';
import type { FixedRateJob } from './load-worker.ts';

const runLoad = (target: LoadTarget, options: LoadOptions) =>
  inChildProcess<FixedRateJob, LoadResult>({ kind: 'fixed-rate', target, options });

const envInt = (name: string, fallback: number) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

const clientCounts = (process.env.BENCH_CLIENTS ?? '200,500')
  .split(',')
  .map((v) => Number.parseInt(v, 10))
  .filter((n) => Number.isFinite(n) && n > 0);
// Below what the embedded PGlite sustains on a shared 2-core machine: above its capacity latency
// measures the queue, not delivery.
const rate = envInt('BENCH_RATE', 50);
const seconds = envInt('BENCH_SECONDS', 15);
const channelCount = envInt('BENCH_CHANNELS', 1);
/** Both servers get the same warm-up; its deliveries are not scored. */
const warmUpSeconds = envInt('BENCH_WARMUP_SECONDS', 2);

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function line(name: string, r: LoadResult): string {
  return [
    name.padEnd(22),
    `p50 ${fmt(r.p50Ms).padStart(7)} ms`,
    `p99 ${fmt(r.p99Ms).padStart(7)} ms`,
    `acked ${fmt(r.ackedPerSecond).padStart(7)}/s`,
    `delivered ${r.deliveries}/${r.expectedDeliveries}`,
    r.ackErrors ? `ack errors ${r.ackErrors} (first: ${r.firstAckError})` : '',
  ].join('  ');
}

async function main(): Promise<void> {
  for (const clients of clientCounts) await compare(clients);
}

async function compare(clients: number): Promise<void> {
  console.log(
    `delivery bench: ${clients} clients, ${channelCount} channels, ${rate} posts/s for ${seconds} s per run`,
  );

  const lantern = await startLantern(clients, channelCount);
  let lanternResult: LoadResult;
  try {
    lanternResult = await runLoad(lantern.target, { ratePerSecond: rate, seconds, warmUpSeconds });
  } finally {
    await lantern.close();
  }

  const echo = await startEchoServer();
  let echoResult: LoadResult;
  try {
    echoResult = await runLoad(
      {
        url: echo.url,
        institutionId: 'echo',
        channelIds: lantern.target.channelIds,
        tokens: lantern.target.tokens,
      },
      { ratePerSecond: rate, seconds, warmUpSeconds },
    );
  } finally {
    await echo.close();
  }

  console.log(line(`Lantern (${lantern.database})`, lanternResult));
  console.log(line('socket.io echo (floor)', echoResult));
  console.log(
    `ratio Lantern/floor: p50 ×${fmt(lanternResult.p50Ms / echoResult.p50Ms, 2)}, p99 ×${fmt(lanternResult.p99Ms / echoResult.p99Ms, 2)}, acked/s ×${fmt(lanternResult.ackedPerSecond / echoResult.ackedPerSecond, 2)}`,
  );
  // Each sender's first post is where Lantern reads (and then remembers) its access: the rest, apart.
  const later = (r: LoadResult) =>
    `p50 ${fmt(r.p50LaterMs).padStart(7)} ms  p99 ${fmt(r.p99LaterMs).padStart(7)} ms`;
  console.log(`after each sender's first post: Lantern ${later(lanternResult)}; floor ${later(echoResult)}`);
  console.log(
    `ratio Lantern/floor after each sender's first post: p50 ×${fmt(lanternResult.p50LaterMs / echoResult.p50LaterMs, 2)}, p99 ×${fmt(lanternResult.p99LaterMs / echoResult.p99LaterMs, 2)}`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
