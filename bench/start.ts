// `npm run bench:start`: how long the built server (`npm run serve`, dist-server/main.js) takes from its
// process starting to its first answer, and the CPU it spends on the way, on a migrated embedded database,
// as after a deploy or a crash. Next to it, the floor (bench/start-floor.mjs): Node loading Fastify,
// socket.io and PGlite, opening the same database and listening. Each is started START_ROUNDS times (7) in
// turn, each time on its own copy of the database, and the medians compared. A start is paid by every
// restart and, in the test suite, by every end-to-end spec. Run `npm run build` first.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/db/client.ts';
import { installMetricRollups } from '../server/metrics/rollup-triggers.ts';
import { loadSecrets } from '../server/secrets.ts';
import { median } from './stats.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUILT = path.join(ROOT, 'dist-server', 'main.js');
const FLOOR = path.join(ROOT, 'bench', 'start-floor.mjs');
const rounds = Math.max(1, Number.parseInt(process.env.START_ROUNDS ?? '', 10) || 7);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU the process has used so far (user and system, every thread), from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

interface Start {
  ms: number;
  cpuMs: number;
}

async function startOnce(args: string[], template: string, secrets: string): Promise<Start> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lantern-bench-start-'));
  await cp(template, path.join(dataDir, 'db'), { recursive: true });
  await cp(secrets, path.join(dataDir, 'secrets.json'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/users`);
        if (res.status === 401) break;
      } catch {
        // Not listening yet.
      }
      await sleep(10);
    }
    return { ms: performance.now() - started, cpuMs: cpuMs(child.pid as number) };
  } finally {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(BUILT)) throw new Error('dist-server/main.js is missing: run `npm run build` first');
  // One migrated database and one secrets file, copied for every start (as the end-to-end specs do).
  const root = await mkdtemp(path.join(tmpdir(), 'lantern-bench-start-template-'));
  const template = path.join(root, 'db');
  const database = await openDatabase({ dbDir: template });
  await installMetricRollups(database.db);
  await database.close();
  await loadSecrets(root);
  const secrets = path.join(root, 'secrets.json');
  console.log(
    `start bench: ${rounds} starts each, taken in turn, on a copy of one migrated embedded database`,
  );
  const lantern: Start[] = [];
  const floor: Start[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // As `npm run serve` starts it.
      lantern.push(await startOnce(['--enable-source-maps', BUILT], template, secrets));
      floor.push(await startOnce([FLOOR], template, secrets));
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const row = (name: string, starts: Start[]) =>
    `${name.padEnd(34)} first answer ${median(starts.map((s) => s.ms))
      .toFixed(0)
      .padStart(5)} ms (${starts.map((s) => s.ms.toFixed(0)).join(', ')})  CPU ${median(
      starts.map((s) => s.cpuMs),
    )
      .toFixed(0)
      .padStart(5)} ms`;
  console.log(row('Lantern (dist-server/main.js)', lantern));
  console.log(row('floor (Fastify, socket.io, PGlite)', floor));
  const ratio = (f: (s: Start) => number) => (median(lantern.map(f)) / median(floor.map(f))).toFixed(2);
  console.log(`ratio: first answer ${ratio((s) => s.ms)}×, CPU ${ratio((s) => s.cpuMs)}×`);
}

await main();
