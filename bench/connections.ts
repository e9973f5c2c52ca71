// `npm run bench:connections`: server memory per idle authenticated socket, and the longest event-loop
// stall while they connect (sign-in check, rooms, presence announced to the workspace), for Lantern and
// for a bare socket.io server (the floor) in the same run. The sockets are opened by a child process, so
// the server's heap holds only the server's side. Env: CONNECTIONS (2000).
import { fork } from 'node:child_process';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startEchoServer } from './echo-server.ts';
import { startLantern } from './lantern-fixture.ts';

const count = Number.parseInt(process.env.CONNECTIONS ?? '', 10) || 2000;
const worker = fileURLToPath(new URL('./idle-sockets-worker.ts', import.meta.url));

interface Measured {
  connectMs: number;
  bytesPerSocket: number;
  longestStallMs: number;
  /** The longest garbage collection meanwhile: a stall this long is the collector's, not our code's. */
  longestGcMs: number;
}

const settle = async () => {
  // Twice, with a pause: socket.io frees handshake garbage a tick after the connection.
  for (let i = 0; i < 2; i++) {
    await new Promise((r) => setTimeout(r, 200));
    (globalThis as { gc?: () => void }).gc?.();
  }
  return process.memoryUsage().heapUsed;
};

/** Until this process spends under a tenth of a core for a whole second (at most a minute). */
async function untilIdle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1_000));
  for (let waited = 0; waited < 60_000; waited += 1_000) {
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1_000));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 100) return;
  }
}

async function measure(url: string, tokens: string[]): Promise<Measured> {
  const before = await settle();
  const child = fork(worker, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  let longestGcMs = 0;
  const gcs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longestGcMs = Math.max(longestGcMs, e.duration);
  });
  gcs.observe({ entryTypes: ['gc'] });
  delay.enable();
  const answer = await new Promise<{ connected?: number; ms?: number; error?: string }>((resolve) => {
    child.once('message', resolve);
    child.send({ url, tokens });
  });
  // Presence work triggered by the connections may still run (written a slice per turn): let it finish
  // before measuring, so the heap holds the sockets and not announcements still queued for them.
  await untilIdle();
  delay.disable();
  gcs.disconnect();
  if (answer.error || answer.connected !== tokens.length) {
    child.kill();
    throw new Error(answer.error ?? `connected ${answer.connected} of ${tokens.length}`);
  }
  const after = await settle();
  await new Promise((resolve) => {
    child.once('message', resolve);
    child.send('close');
  });
  return {
    connectMs: answer.ms ?? Number.NaN,
    bytesPerSocket: (after - before) / tokens.length,
    longestStallMs: delay.max / 1e6,
    longestGcMs,
  };
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const line = (name: string, m: Measured) =>
  [
    name.padEnd(22),
    `heap per socket ${fmt(m.bytesPerSocket / 1024).padStart(6)} KiB`,
    `longest stall ${fmt(m.longestStallMs).padStart(6)} ms (longest GC ${fmt(m.longestGcMs)} ms)`,
    `all connected in ${fmt(m.connectMs / 1000, 2)} s`,
  ].join('  ');

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc)
    throw new Error('run with node --expose-gc (npm run bench:connections)');
  console.log(`connections bench: ${count} idle authenticated sockets on one node, one workspace`);
  const lantern = await startLantern(count, 1);
  let ours: Measured;
  try {
    ours = await measure(lantern.target.url, lantern.target.tokens);
  } finally {
    await lantern.close();
  }
  const echo = await startEchoServer();
  let floor: Measured;
  try {
    floor = await measure(echo.url, lantern.target.tokens);
  } finally {
    await echo.close();
  }
  console.log(line(`Lantern (${lantern.database})`, ours));
  console.log(line('bare socket.io (floor)', floor));
  console.log(`ratio Lantern/floor: heap per socket ×${fmt(ours.bytesPerSocket / floor.bytesPerSocket, 2)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
