// The client benchmark's measurements, each the way a person meets it: a first visit in a fresh browser
// that is only signed in, reloads of a tab whose store holds the whole channel (server up, then stopped),
// Enter in the composer, and a message someone else posts. Times come from the page's own clocks
// (client-browser.ts); Playwright only drives.
import http from 'node:http';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { LanternServer } from '../e2e/support/server.ts';
import { newGenId } from '../src/store/gen-id.ts';
import {
  armFirstRow,
  awaitRow,
  type FirstRow,
  firstRowPainted,
  keyToNextPaint,
  newProbedContext,
  pageScriptBytes,
  type StorageState,
  settled,
  storedMessageCount,
  throttle,
} from './client-browser.ts';
import type { FloorServer } from './client-floor.ts';
import type { SeededWorkspace } from './client-seed.ts';
import { connect } from './load.ts';

/** The page's CPU slowdown (4: a mid-range phone); BENCH_CLIENT_SLOWDOWN=1 to tell its work from its waits. */
export const SLOWDOWN = Math.max(1, Number(process.env.BENCH_CLIENT_SLOWDOWN) || 4);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function channelUrl(server: LanternServer, seed: SeededWorkspace): string {
  return `${server.url}/client/${seed.institutionId}/channel/${seed.channelId}`;
}

/**
 * Signs in through the UI with the mailed code, then keeps only the session (and RxDB's own bookkeeping)
 * of the store: the state of a browser that has just signed in and holds no workspace data yet.
 */
export async function signedInState(
  browser: Browser,
  server: LanternServer,
  seed: SeededWorkspace,
): Promise<StorageState> {
  const context = await newProbedContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/signin/);
    await page.getByLabel('E-mail').fill(seed.readerEmail);
    const since = Date.now() - 1;
    await page.getByRole('button', { name: 'Continue with e-mail' }).click();
    const code = await server.readCode(seed.readerEmail, since);
    // Typing the sixth digit signs in without another click.
    await page.getByLabel('Sign-in code').fill(code);
    await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
    // Playwright returns each origin's IndexedDB too when asked, though its types do not say so.
    const state = await context.storageState({ indexedDB: true });
    return {
      cookies: state.cookies,
      origins: state.origins.map((o) => {
        const databases = (o as { indexedDB?: { name: string }[] }).indexedDB ?? [];
        return { ...o, indexedDB: databases.filter((d) => /--(session|_rxdb_internal)$/.test(d.name)) };
      }),
    };
  } finally {
    await context.close();
  }
}

export interface FirstVisit {
  /** The first row presented (Element Timing), ms from navigation start. */
  ms: number | null;
  /** The second animation frame after it began (the earlier measure). */
  framed: number | null;
  /** Encoded bytes of the page's scripts that arrived before the first row. */
  pageJs: number;
  /** Those scripts, largest first: "name size", to see what the first row waited for. */
  pageScripts: string[];
  /** Encoded bytes of the worker's scripts (entry and static imports) as the server sends them. */
  workerJs: number;
}

/**
 * Bytes of `url` as the server sends them to Chromium (compressed, not decoded), and the body decoded.
 * Chromium reports no size for a worker's script load, and the service worker may have fetched it first,
 * so the worker's scripts are weighed this way.
 */
async function wireBytes(url: string): Promise<{ bytes: number; text: string }> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, resolve).on('error', reject);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const encoding = res.headers['content-encoding'];
  const plain =
    encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
  return { bytes: body.length, text: plain.toString('utf8') };
}

/** The page's (shared or dedicated) workers' scripts with their static imports, weighed on the wire. */
async function workerScriptBytes(browser: Browser, origin: string): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos: { type: string; url: string }[];
  };
  await cdp.detach();
  const queue = targetInfos
    .filter((t) => (t.type === 'shared_worker' || t.type === 'worker') && t.url.startsWith(origin))
    .map((t) => t.url);
  const seen = new Set<string>();
  let total = 0;
  while (queue.length > 0) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const { bytes, text } = await wireBytes(url);
    total += bytes;
    for (const m of text.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+\.m?js)["']/g)) {
      queue.push(new URL(m[1] as string, url).toString());
    }
  }
  return total;
}

/** One navigation in a fresh context (empty store and caches, nothing of the site's but `state`). */
export async function firstVisit(browser: Browser, url: string, state?: StorageState): Promise<FirstVisit> {
  const context = await newProbedContext(browser, state);
  try {
    const page = await context.newPage();
    await throttle(page, SLOWDOWN);
    const row = armFirstRow(page);
    await page.goto(url, { waitUntil: 'commit' });
    const first = await row;
    if (first === null) return { ms: null, framed: null, pageJs: 0, pageScripts: [], workerJs: 0 };
    const ms = first.painted;
    const pageJs = await pageScriptBytes(page, ms);
    const workerJs = await workerScriptBytes(browser, new URL(url).origin);
    const pageScripts = pageJs.urls
      .map((url, i) => ({ name: url.replace(/^.*\//, ''), bytes: pageJs.sizes[i] ?? 0 }))
      .sort((a, b) => b.bytes - a.bytes)
      .map((s) => `${s.name} ${(s.bytes / 1000).toFixed(1)} kB`);
    return { ms, framed: first.framed, pageJs: pageJs.bytes, pageScripts, workerJs };
  } finally {
    await context.close();
  }
}

/**
 * A signed-in tab on the channel whose store holds all `count` messages (synced without slowdown, waiting
 * until the count stops moving) and whose service worker controls it. The sync runs on the profile screen:
 * with the channel open during a catch-up of thousands of messages the tab's heap grows past a gigabyte
 * and the renderer crashed near 5,000 of 50,000 (the app's concern; this benchmark measures reloads).
 */
export async function syncedTab(
  browser: Browser,
  server: LanternServer,
  seed: SeededWorkspace,
  state: StorageState,
  log: (line: string) => void,
  /** The longest the store may take to fill; then the tab is measured with what it holds. */
  limitSeconds = 900,
): Promise<{ context: BrowserContext; page: Page; stored: number }> {
  const count = seed.messageCount;
  const context = await newProbedContext(browser, state);
  const page = await context.newPage();
  page.on('crash', () => log('  the tab crashed'));
  await page.goto(`${server.url}/client/${seed.institutionId}/profile`);
  const started = Date.now();
  let last = -1;
  let stableSince = Date.now();
  let lastLog = 0;
  for (;;) {
    const stored = await storedMessageCount(page);
    if (stored !== last) {
      last = stored;
      stableSince = Date.now();
    }
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(`  syncing: ${stored.toLocaleString('en')} of ${count.toLocaleString('en')} messages stored`);
    }
    if (stored >= count && Date.now() - stableSince > 2_000) break;
    if (Date.now() - stableSince > 180_000) {
      log(`  sync stalled at ${stored.toLocaleString('en')} messages; measuring with what is stored`);
      break;
    }
    if (Date.now() - started > limitSeconds * 1000) {
      log(
        `  sync still running after ${limitSeconds} s; measuring with the ${stored.toLocaleString('en')} stored`,
      );
      break;
    }
    await sleep(500);
  }
  log(`  synced ${last.toLocaleString('en')} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await page.goto(channelUrl(server, seed));
  await firstRowPainted(page);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  return { context, page, stored: last };
}

/**
 * Unmeasured reloads before the measured ones, the same for the app and the floor: a person's reload
 * finds the browser's caches as their last visits left them, and Chromium compiles a script from the
 * code cache only from its third load (the first two reloads of a tab ran 30–80 ms slower at 4×).
 */
const WARM_UP_RELOADS = 2;

/** One reload of an open tab to its first row painted (null when none came or the tab crashed). */
async function reloadOnce(page: Page): Promise<FirstRow | null> {
  const row = armFirstRow(page);
  try {
    await page.reload({ waitUntil: 'commit' });
  } catch {
    return null;
  }
  const first = await row;
  // Let the reloaded app settle (worker reconnect, catch-up) before the next reload, of this tab or another.
  await sleep(1_500);
  await settled(page);
  return first;
}

/**
 * Reloads of several open tabs taken in turn (one of each, then again), each to its first row painted,
 * after the warm-ups; a list of figures per tab, in the order given. Taken in turn, the app's figures and
 * the floor's (and one store size's and another's) come from the same minutes of the machine: measured one
 * tab after the other, the floor's own reloads drifted from 36 to 80 ms between runs minutes apart here,
 * more than the differences the ratios are read for.
 */
export async function reloadsInTurn(pages: readonly Page[], runs: number): Promise<(FirstRow | null)[][]> {
  const times: (FirstRow | null)[][] = pages.map(() => []);
  // The tabs not being measured are frozen (no tasks, no timers) and at full speed (a slowed tab spins a
  // core even when idle), so none of them shares the cores; the one being reloaded is slowed.
  const sessions = await Promise.all(pages.map((page) => page.context().newCDPSession(page)));
  const lifecycle = (k: number, state: 'frozen' | 'active') =>
    sessions[k]?.send('Page.setWebLifecycleState', { state }).catch(() => undefined);
  const only = async (k: number | null) => {
    await Promise.all(pages.map((page, j) => throttle(page, j === k ? SLOWDOWN : 1)));
    await Promise.all(pages.map((_, j) => lifecycle(j, j === k || k === null ? 'active' : 'frozen')));
  };
  try {
    for (let i = -WARM_UP_RELOADS; i < runs; i++) {
      // Each round starts one tab further on, so no tab is always the first after the servers stop.
      const round = pages.map((_, j) => (j + i + WARM_UP_RELOADS) % pages.length);
      for (const k of round) {
        await only(k);
        const first = await reloadOnce(pages[k] as Page);
        if (i >= 0) times[k]?.push(first);
      }
    }
  } finally {
    await only(null);
    await Promise.all(sessions.map((s) => s.detach().catch(() => undefined)));
  }
  return times;
}

/** The floor's first visits, each in a fresh context. */
export async function floorFirstVisits(
  browser: Browser,
  floor: FloorServer,
  runs: number,
): Promise<(FirstRow | null)[]> {
  const first: (FirstRow | null)[] = [];
  for (let i = 0; i < runs; i++) {
    const visit = await firstVisit(browser, floor.url);
    first.push(
      visit.ms === null || visit.framed === null ? null : { painted: visit.ms, framed: visit.framed },
    );
  }
  return first;
}

/** A tab on the one-element page, controlled by its service worker (slowed only while reloaded in turn). */
export async function floorTab(
  browser: Browser,
  floor: FloorServer,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newProbedContext(browser);
  const page = await context.newPage();
  await page.goto(floor.url);
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  return { context, page };
}

/** Enter in the composer → the pending row painted, per send: in ms, and in frames (1 = the next frame). */
export async function localEcho(
  page: Page,
  sends: number,
): Promise<{ times: number[]; frames: number[]; nextPaint: (number | null)[] }> {
  const box = page.getByRole('textbox', { name: 'Message #general' });
  const times: number[] = [];
  const frames: number[] = [];
  const nextPaint: (number | null)[] = [];
  for (let i = 0; i < sends; i++) {
    const text = `Echo ${i} ${Math.random().toString(36).slice(2, 8)}`;
    await box.fill(text);
    const { painted } = await awaitRow(page, text);
    await box.press('Enter');
    const row = await painted;
    if (row.keyAt !== null) times.push(row.presentedAt - row.keyAt);
    if (row.frames !== null) frames.push(row.frames);
    await sleep(300);
    // Read after the pause: the browser reports an event's timing some frames after it.
    if (row.keyAt !== null) nextPaint.push(await keyToNextPaint(page, row.keyAt));
  }
  return { times, frames, nextPaint };
}

/** What typing in the composer costs the page: main-thread time per key, and each key to its next paint. */
export interface Typing {
  /** The page's main-thread task time per key typed (Chromium's own count), in ms. */
  taskMsPerKey: number;
  /** The part of it spent running script. */
  scriptMsPerKey: number;
  /** Each key to the next paint after its handlers (Event Timing); null when under its 16 ms threshold. */
  nextPaint: (number | null)[];
}

/** Words typed into the composer, a key every TYPING_DELAY_MS (a quick typist), then taken out again. */
const TYPED = 'see you at the standup ';
const TYPING_DELAY_MS = 120;

/**
 * Typing in the composer, `rounds` times: a composer that re-renders more than it must shows here first
 * (until 2026-12-01 every key re-rendered its toolbar, its menus and the sidebar).
 */
export async function typing(page: Page, rounds: number): Promise<Typing> {
  const box = page.getByRole('textbox', { name: 'Message #general' });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => {
    const { metrics: all } = await cdp.send('Performance.getMetrics');
    const value = (name: string) => (all.find((m) => m.name === name)?.value ?? 0) * 1000;
    return { task: value('TaskDuration'), script: value('ScriptDuration') };
  };
  let task = 0;
  let script = 0;
  const nextPaint: (number | null)[] = [];
  try {
    await box.click();
    for (let i = 0; i < rounds; i++) {
      await sleep(500);
      const since = await page.evaluate(() => performance.now());
      const before = await metrics();
      await page.keyboard.type(TYPED, { delay: TYPING_DELAY_MS });
      // The last key's saves and renders, and the browser's report of its timing, come after it.
      await sleep(800);
      const after = await metrics();
      task += after.task - before.task;
      script += after.script - before.script;
      const reported = await page.evaluate(
        (t) =>
          (
            window as unknown as { __bench: { eventTimings: { startTime: number; duration: number }[] } }
          ).__bench.eventTimings.filter((e) => e.startTime >= t),
        since,
      );
      // A key the API did not report was under its threshold.
      for (const e of reported.slice(0, TYPED.length)) nextPaint.push(e.duration);
      for (let k = reported.length; k < TYPED.length; k++) nextPaint.push(null);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Backspace');
    }
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  const keys = rounds * TYPED.length;
  return { taskMsPerKey: task / keys, scriptMsPerKey: script / keys, nextPaint };
}

/**
 * The floor's Enter → row and typing: the one-element page's bare composer, slowed and measured like the
 * app's.
 */
export async function floorEcho(
  browser: Browser,
  floor: FloorServer,
  sends: number,
  typingRounds: number,
): Promise<{ times: number[]; frames: number[]; nextPaint: (number | null)[]; typing: Typing }> {
  const context = await newProbedContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(floor.url);
    await throttle(page, SLOWDOWN);
    const typed = await typing(page, typingRounds);
    return { ...(await localEcho(page, sends)), typing: typed };
  } finally {
    await context.close();
  }
}

/**
 * A message posted by the second person → its row painted here, in ms, per post: through a socket as their
 * own app posts it (the default), or through the REST API as an integration would. With `mouseOverList`
 * the mouse rests over the middle of the message list, as on a desk: each message scrolls another row under
 * it (until decision 0060's amendment, that row then built its actions). `answered`, when given, collects
 * each post's answer time (the server has committed and broadcast it by then). `busy`, when given, gets
 * the page's main-thread time per measured post (see postedToPainted).
 */
export async function liveMessages(
  page: Page,
  server: LanternServer,
  seed: SeededWorkspace,
  posts: number,
  {
    mouseOverList = false,
    answered,
    busy,
    through = 'socket',
  }: { mouseOverList?: boolean; answered?: number[]; busy?: number[]; through?: 'socket' | 'rest' } = {},
): Promise<number[]> {
  if (mouseOverList) {
    const box = await page.locator('[data-message-list]').boundingBox();
    if (!box) throw new Error('the message list has no box to rest the mouse over');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  }
  const where = { institutionId: seed.institutionId, channelId: seed.channelId };
  if (through === 'rest')
    return await postedToPainted(
      page,
      posts,
      async (text) => {
        const res = await fetch(
          `${server.url}/api/institutions/${where.institutionId}/channels/${where.channelId}/messages`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${seed.posterToken}`, 'content-type': 'application/json' },
            body: JSON.stringify({ genId: newGenId(), content: `<p>${text}</p>` }),
          },
        );
        if (!res.ok) throw new Error(`posting a live message → ${res.status} ${await res.text()}`);
      },
      answered,
      busy,
    );
  const socket = await connect(server.url, seed.posterToken);
  try {
    return await postedToPainted(
      page,
      posts,
      async (text) => {
        const ack = await socket
          .timeout(10_000)
          .emitWithAck('postMessage', { ...where, genId: newGenId(), content: `<p>${text}</p>` });
        if ('error' in ack) throw new Error(`posting a live message → ${ack.error.message}`);
      },
      answered,
      busy,
    );
  } finally {
    socket.disconnect();
  }
}

/**
 * The floor's live message: a line posted to the one-element page's server → its row painted, slowed and
 * measured like the app's. What is left is the machine's: an HTTP request, one push down an open stream,
 * a row appended and the frame that paints it.
 */
export async function floorLive(browser: Browser, floor: FloorServer, posts: number): Promise<number[]> {
  const context = await newProbedContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(floor.liveUrl);
    await page.waitForFunction(() => document.readyState === 'complete');
    for (let i = 0; i < 100 && !floor.listening; i++) await sleep(50);
    if (!floor.listening) throw new Error("the floor's live page did not open its event stream");
    await throttle(page, SLOWDOWN);
    return await postedToPainted(page, posts, (text) => floor.post(text));
  } finally {
    await context.close();
  }
}

/**
 * Unmeasured posts before each series, so that no series counts posts that pay for code not yet run (the
 * floor page's first line, the app's first arrival after the sends).
 */
const WARM_UP_POSTS = 3;

/**
 * Each post's text → its row painted on `page`, in ms, one post at a time with a pause between, after
 * the warm-up posts; each measured post's answer time into `answered`, when given. `busy`, when given,
 * gets one figure: the page's main-thread task time over the measured posts (Chromium's TaskDuration,
 * pauses included, so everything a message sets off in the page is counted, before its row's frame and
 * after), divided by their number.
 */
async function postedToPainted(
  page: Page,
  posts: number,
  post: (text: string) => Promise<void>,
  answered?: number[],
  busy?: number[],
): Promise<number[]> {
  const times: number[] = [];
  const metrics = busy ? await page.context().newCDPSession(page) : null;
  const taskSeconds = async () => {
    if (!metrics) return 0;
    const { metrics: list } = await metrics.send('Performance.getMetrics');
    return list.find((m) => m.name === 'TaskDuration')?.value ?? 0;
  };
  await metrics?.send('Performance.enable');
  let busyFrom = 0;
  for (let i = -WARM_UP_POSTS; i < posts; i++) {
    if (i === 0) busyFrom = await taskSeconds();
    const text = `Live ${i} ${Math.random().toString(36).slice(2, 8)}`;
    const { painted } = await awaitRow(page, text);
    const sentEpoch = performance.timeOrigin + performance.now();
    await post(text);
    const answeredMs = performance.timeOrigin + performance.now() - sentEpoch;
    const row = await painted;
    if (i >= 0) {
      answered?.push(answeredMs);
      times.push(row.presentedEpoch - sentEpoch);
    }
    await sleep(300);
  }
  if (metrics) {
    busy?.push((((await taskSeconds()) - busyFrom) * 1000) / posts);
    await metrics.detach();
  }
  return times;
}
