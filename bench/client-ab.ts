// `npm run bench:client-ab -- <other checkout>`: issue 11 item 6 (Enter → pending row, another person's
// message → row) for this checkout's build and another's, side by side. A single `bench:client` run of
// one build is not comparable with one taken minutes or a session earlier on this machine (its figures
// moved by 10 ms and more with the load: docs/performance.md, "A list that appends"); here each build has
// its server and a synced tab, and rounds of live messages and sends are taken in turn, the order
// alternating, only the measured tab slowed. The other build is the floor: the ratio is this one's over it.
// Both checkouts must be built (`npm run build`); the other needs its own node_modules (a symlink to this
// one's does, when its dependencies are the same or fewer). Figures, not assertions: it exits 0.
// Env: BENCH_AB_ROUNDS (6), BENCH_AB_PER_ROUND (10), BENCH_AB_SIZE (3000 stored messages),
// BENCH_CLIENT_SLOWDOWN (4).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { LanternServer } from '../e2e/support/server.ts';
import { launchChromium, throttle } from './client-browser.ts';
import { liveMessages, localEcho, SLOWDOWN, signedInState, syncedTab } from './client-measure.ts';
import { ms, percentile, type Row, ratio, table } from './client-print.ts';
import { type SeededWorkspace, seedWorkspace } from './client-seed.ts';

const other = process.argv[2] ? path.resolve(process.argv[2]) : '';
if (!other || !existsSync(path.join(other, 'dist-server', 'main.js'))) {
  console.error('usage: npm run bench:client-ab -- <another checkout, built with npm run build>');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS) || 6;
const PER_ROUND = Number(process.env.BENCH_AB_PER_ROUND) || 10;
const SIZE = Number(process.env.BENCH_AB_SIZE) || 3000;

interface Side {
  name: string;
  server: LanternServer;
  seed: SeededWorkspace;
  page: Page;
  live: number[];
  echo: number[];
  /** The page's main-thread ms per live message, one figure a round. */
  busy: number[];
}

const sleep = (msecs: number) => new Promise((resolve) => setTimeout(resolve, msecs));
const browser = await launchChromium();

async function side(name: string, Server: typeof LanternServer): Promise<Side> {
  const server = await Server.create();
  const seed = await seedWorkspace(server.dataDir, SIZE);
  await server.start();
  const state = await signedInState(browser, server, seed);
  const { page } = await syncedTab(browser, server, seed, state, () => {}, 300);
  await page.reload();
  await page.getByRole('textbox', { name: 'Message #general' }).waitFor({ timeout: 120_000 });
  return { name, server, seed, page, live: [], echo: [], busy: [] };
}

async function round(s: Side): Promise<void> {
  await throttle(s.page, SLOWDOWN);
  s.live.push(...(await liveMessages(s.page, s.server, s.seed, PER_ROUND, { busy: s.busy })));
  s.echo.push(...(await localEcho(s.page, PER_ROUND)).times);
  // Full speed again: a slowed idle tab keeps most of a core busy (see throttle()).
  await throttle(s.page, 1);
}

// The other checkout's server module starts that checkout's build (it finds dist/ beside itself).
const theirs = (await import(path.join(other, 'e2e', 'support', 'server.ts'))) as {
  LanternServer: typeof LanternServer;
};
const them = await side(`other (${path.basename(other)})`, theirs.LanternServer);
const us = await side('this checkout', LanternServer);
try {
  await sleep(3_000);
  for (let r = 0; r < ROUNDS; r++) for (const s of r % 2 === 0 ? [them, us] : [us, them]) await round(s);
  const rows: Row[] = [];
  const figure = (what: string, mine: number[], floor: number[], p: number) => {
    const a = percentile(mine, p);
    const b = percentile(floor, p);
    rows.push({ what, figure: ms(a), floor: ms(b), ratio: ratio(a, b) });
  };
  figure('Enter → pending row painted, p50', us.echo, them.echo, 50);
  figure('  p95', us.echo, them.echo, 95);
  figure("another person's message → row painted, p50", us.live, them.live, 50);
  figure('  p95', us.live, them.live, 95);
  figure("  the page's main thread per message, median of the rounds", us.busy, them.busy, 50);
  console.log(
    `\n${table(
      `${SIZE.toLocaleString('en')} messages stored, CPU ${SLOWDOWN}× slower, ${ROUNDS} rounds of ` +
        `${PER_ROUND} each, taken in turn (floor: the other checkout's build, ${other})`,
      rows,
    )}`,
  );
} finally {
  await browser.close();
  await them.server.dispose();
  await us.server.dispose();
}
