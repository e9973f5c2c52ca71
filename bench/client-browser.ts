// Debian's Chromium driven through Playwright for the client benchmark, and what the benchmark reads
// inside the page: when the first message row was painted, which scripts arrived before it, how many
// messages the store holds, and when a given message's row was painted.
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  type ConsoleMessage,
  chromium,
  type Page,
} from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium.ts';
import { FIRST_ROWS_TIMING } from '../src/first-screen/rows-painted.ts';

/** What a context restores: the store with only the session in it (a person just signed in). */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A message row painted: the app's own, or one in the picture of the screen the boot script paints from
 * IndexedDB before the app has loaded (src/first-screen/, which leaves out the rows' data attributes).
 */
export const ROW_SELECTOR = 'article[data-status], #first-screen article';

export async function launchChromium(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
}

/** What the probe logs when the first row was painted (read from the console: see armFirstRow). */
const FIRST_ROW_MESSAGE = 'bench:first-row';
/** What it logs when the awaited row was painted (see awaitRow). */
const AWAITED_ROW_MESSAGE = 'bench:awaited-row';

// Runs before any page script. The first row element seen by a MutationObserver is timed twice, in
// milliseconds since navigation start, and logged: when the browser presented it (Element Timing, the
// figure), and when the second animation frame after it began (the earlier measure: it ran late whenever
// a long task followed the frame that painted the row, as the app's start follows the boot picture's).
// It also watches for one awaited row (local echo, live message): when the browser presented it (Element
// Timing again), and the task after the first frame with the whole row in view, both on the epoch clock so
// Node can compare. The figure is the presentation: the after-frame task waits behind whatever was queued
// before it (the app's effects of that render, after the frame), which the floor page has none of, so it
// read the app 3–6 ms late at the median and the floor 3–4 ms early (docs/performance.md, 2026-12-04).
const PAGE_PROBE = `(() => {
  if (window.top !== window) return;
  const selector = ${JSON.stringify(ROW_SELECTOR)};
  const probe = { firstRow: null, awaited: null, keyAt: null };
  window.__bench = probe;
  const afterPaint = (done) => requestAnimationFrame((frame) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => done(performance.now(), frame);
    ch.port2.postMessage(0);
  });
  // The frame after which the awaited row is wholly in view (inside its scroller): a new row a list draws
  // below the fold and scrolls to a frame or two later is not read until then. Checked after each
  // frame's paint, up to a second of frames.
  // The awaited row is a new message, so among the newest few rows: only those are read. Reading every
  // row's text on each mutation and frame cost the page several ms a message at 4× once the list kept
  // its whole window (a few hundred rows) in the document; the probe's work is not the app's.
  const newest = (text) => {
    const rows = document.querySelectorAll(selector);
    for (let i = rows.length - 1; i >= Math.max(0, rows.length - 10); i--)
      if (rows[i].textContent && rows[i].textContent.includes(text)) return rows[i];
    return undefined;
  };
  const inView = (text) => {
    const row = newest(text);
    if (!row) return false;
    const r = row.getBoundingClientRect();
    const scroller = row.closest('[data-message-scroller]');
    const box = scroller ? scroller.getBoundingClientRect() : { top: 0, bottom: innerHeight };
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  };
  const afterShown = (text, done, tries = 0) => afterPaint((t, frame) => {
    if (tries < 60 && !inView(text)) afterShown(text, done, tries + 1);
    else done(t, frame);
  });
  // The first frame after Enter: every animation-frame callback of one frame gets the same timestamp, so a
  // row whose callback has it was painted in the very next frame.
  // The browser's own measure of a key's response (the Event Timing API, what INP is built on): from the
  // key event to the next paint after its handlers ran. Only entries of 16 ms or more are reported.
  probe.eventTimings = [];
  // When the page's last long task ended: a tab is let settle until it has been quiet a while (settled()).
  probe.lastLongTask = 0;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.lastLongTask = Math.max(probe.lastLongTask, e.startTime + e.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.name === 'keydown') probe.eventTimings.push({ startTime: e.startTime, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  } catch {}
  addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && probe.awaited && probe.keyAt === null) {
      probe.keyAt = e.timeStamp;
      probe.keyFrame = null;
      requestAnimationFrame((frame) => { probe.keyFrame = frame; });
    }
  }, true);
  // Every row that appears is marked until one is painted: the first one seen may go before it is (the
  // message list's first, unmeasured pass renders one row and takes it away; stamped from that row, a first
  // visit at 4× read 0.7 s early), or be hidden (the list, when virtualised, kept its rows hidden until
  // its first scroll had settled). The two-frames-after stamp counts only for a row still in the document and
  // visible then.
  let painted = null;
  let framed = null;
  let reported = false;
  const report = () => {
    if (reported || painted === null || framed === null) return;
    reported = true;
    probe.firstRow = painted;
    styles.disconnect();
    console.debug(${JSON.stringify(FIRST_ROW_MESSAGE)}, JSON.stringify({ painted, framed }));
  };
  // The message list marks the rows it first shows itself (src/first-screen/rows-painted.ts), over the
  // probe's marks.
  const fromEntries = (entries) => {
    for (const e of entries)
      if ((e.identifier === 'bench-first-row' || e.identifier === ${JSON.stringify(FIRST_ROWS_TIMING)}) && painted === null)
        painted = e.renderTime || e.loadTime;
  };
  let elements = null;
  try {
    elements = new PerformanceObserver((list) => {
      fromEntries(list.getEntries());
      if (painted !== null) elements.disconnect();
      report();
    });
    elements.observe({ type: 'element', buffered: true });
  } catch {}
  const visible = (row) => row.isConnected && row.checkVisibility({ visibilityProperty: true });
  const framing = new WeakSet();
  const frameRow = (row) => {
    if (framing.has(row)) return;
    framing.add(row);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      framing.delete(row);
      if (framed !== null || !visible(row)) return;
      framed = performance.now();
      report();
      // No Element Timing entry within three seconds (unsupported, or nothing of the row's was painted):
      // the two-frame stamp stands for it. An entry already queued but not yet delivered (a busy main
      // thread holds observer callbacks back for seconds at 4×) is taken first.
      setTimeout(() => {
        if (elements) fromEntries(elements.takeRecords());
        if (painted === null) painted = framed;
        report();
      }, 3000);
    }));
  };
  const unmarked = selector.split(',').map((s) => s.trim() + ':not([elementtiming])').join(', ');
  const firstRows = () => {
    if (reported) return;
    // All of them: the first in the document may be one the list renders above the visible part, which is
    // never painted. Element Timing reports an element's text when it is first presented; text counts
    // toward the element that holds it, so the row and everything in it are marked.
    for (const row of document.querySelectorAll(unmarked))
      for (const el of [row, ...row.querySelectorAll('*')]) el.setAttribute('elementtiming', 'bench-first-row');
    if (framed !== null) return;
    for (const row of document.querySelectorAll(selector))
      if (visible(row)) {
        frameRow(row);
        break;
      }
  };
  // Rows are shown by a style change too (the list's visibility), watched only until the first row.
  const styles = new MutationObserver(firstRows);
  styles.observe(document, { subtree: true, attributes: true, attributeFilter: ['style'] });
  // The awaited row's presentation, from Element Timing as for the first row: the after-frame stamp runs
  // after whatever tasks were queued before its own (the app's effects, after the frame that painted it).
  const reportAwaited = (a) => {
    if (a.reported || a.paintedAt === null || (a.presentedAt === null && !a.waited)) return;
    a.reported = true;
    const presentedAt = a.presentedAt ?? a.paintedAt;
    // Frames are 1/60 s apart here (headless Chromium); the count is rounded to whole frames.
    const frames = probe.keyAt === null || probe.keyFrame === null
      ? null : 1 + Math.round((a.frame - probe.keyFrame) / (1000 / 60));
    console.debug(${JSON.stringify(AWAITED_ROW_MESSAGE)}, JSON.stringify({
      keyAt: probe.keyAt, paintedAt: a.paintedAt, paintedEpoch: performance.timeOrigin + a.paintedAt,
      presentedAt, presentedEpoch: performance.timeOrigin + presentedAt, timed: a.presentedAt !== null, frames,
    }));
  };
  const fromAwaitedEntries = (entries) => {
    const a = probe.awaited;
    if (!a || !a.row) return;
    for (const e of entries)
      if (e.identifier === 'bench-awaited' && e.element && a.row.contains(e.element)) {
        const t = e.renderTime || e.loadTime;
        if (a.presentedAt === null || t < a.presentedAt) a.presentedAt = t;
      }
    reportAwaited(a);
  };
  let awaitedElements = null;
  try {
    awaitedElements = new PerformanceObserver((list) => fromAwaitedEntries(list.getEntries()));
    awaitedElements.observe({ type: 'element' });
  } catch {}
  const check = () => {
    firstRows();
    const a = probe.awaited;
    if (a && a.seen === false) {
      const row = newest(a.text);
      if (row) {
        a.seen = true;
        // Marked in the mutation's microtask, before the frame that first paints it.
        a.row = row;
        for (const el of [row, ...row.querySelectorAll('*')]) el.setAttribute('elementtiming', 'bench-awaited');
        afterShown(a.text, (t, frame) => {
          a.paintedAt = t;
          a.frame = frame;
          reportAwaited(a);
          // No Element Timing entry within three seconds: the after-frame stamp stands for it. One queued
          // but not yet delivered (a busy main thread holds observer callbacks back) is taken first.
          setTimeout(() => {
            if (awaitedElements) fromAwaitedEntries(awaitedElements.takeRecords());
            a.waited = true;
            reportAwaited(a);
          }, 3000);
        });
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})();`;

export async function newProbedContext(
  browser: Browser,
  storageState?: StorageState,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'allow',
    ...(storageState ? { storageState } : {}),
  });
  await context.addInitScript({ content: PAGE_PROBE });
  return context;
}

/** The sessions that hold each page's slowdown: Chromium lifts a session's emulation when it detaches. */
const throttles = new WeakMap<Page, CDPSession>();

/**
 * The CPU slowdown of a mid-range phone (1 = none, which lifts it); it stays on across reloads of this page.
 * The DevTools session that set it stays attached for the page's life: until 2026-12-01 it was detached at
 * once, which lifted the slowdown, so every "4×" figure before then was in fact taken at full speed.
 * Only the page being measured may be slowed: Chromium slows a page by suspending its main thread, which
 * spins meanwhile, so a slowed page keeps three quarters of a core busy even when idle (three idle slowed
 * tabs took 1.7 of this machine's two cores, enough to starve a server's restart past a minute).
 */
export async function throttle(page: Page, rate: number): Promise<void> {
  let cdp = throttles.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    throttles.set(page, cdp);
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

const POLL = { polling: 100, timeout: 180_000 } as const;

/**
 * Waits until the page has had no long task (50 ms or more, at its slowdown) for `quietMs`, or `limitMs`
 * has passed: a reloaded app goes on starting (its store, the worker's reconnect and catch-up) long after
 * its first row, and another tab measured meanwhile would share the two cores with it.
 */
export async function settled(page: Page, quietMs = 1_000, limitMs = 20_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    const quiet = await page
      .evaluate(() => {
        const probe = (window as unknown as { __bench?: { lastLongTask: number } }).__bench;
        return probe ? performance.now() - probe.lastLongTask : 0;
      })
      .catch(() => 0);
    if (quiet >= quietMs) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** When a document's first row was painted, in ms from its navigation start (see PAGE_PROBE). */
export interface FirstRow {
  /** Presented on screen (Element Timing). */
  painted: number;
  /** The second animation frame after the row appeared began. */
  framed: number;
}

/**
 * The first row painted by the page's next document, or null when none came. Armed before the
 * navigation and read from the probe's console message, so nothing runs in the page while it loads:
 * polling with waitForFunction injected Playwright's utility script into the new document, 10–18 ms of
 * compiling at 4× that sometimes ran before the boot script and delayed the first row it was measuring
 * (the one-element floor had painted by then).
 */
export function armFirstRow(page: Page, timeoutMs = POLL.timeout): Promise<FirstRow | null> {
  return nextStamp<FirstRow>(page, FIRST_ROW_MESSAGE, timeoutMs);
}

/** The JSON the probe logs next after `prefix`, or null on a timeout or a crashed page. */
function nextStamp<T>(page: Page, prefix: string, timeoutMs: number): Promise<T | null> {
  return new Promise<T | null>((resolve) => {
    const done = (value: T | null) => {
      clearTimeout(timer);
      page.off('console', onConsole);
      page.off('crash', onCrash);
      resolve(value);
    };
    const onConsole = (message: ConsoleMessage) => {
      const text = message.text();
      if (text.startsWith(prefix)) done(JSON.parse(text.slice(prefix.length)) as T);
    };
    const onCrash = () => done(null);
    const timer = setTimeout(() => done(null), timeoutMs);
    page.on('console', onConsole);
    page.on('crash', onCrash);
  });
}

/** Milliseconds from navigation start to the first row painted, for the page's current document. */
export async function firstRowPainted(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    () => (window as unknown as { __bench?: { firstRow: number | null } }).__bench?.firstRow ?? null,
    null,
    POLL,
  );
  return (await handle.jsonValue()) as number;
}

/** Encoded (on the wire) bytes of the page's script responses that ended before `before` (ms). */
export async function pageScriptBytes(
  page: Page,
  before: number,
): Promise<{ bytes: number; urls: string[]; sizes: number[] }> {
  return await page.evaluate((limit) => {
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (e) => /\.m?js$/.test(new URL(e.name).pathname) && e.responseEnd <= limit,
    );
    return {
      bytes: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0),
      urls: scripts.map((e) => new URL(e.name).pathname),
      sizes: scripts.map((e) => e.encodedBodySize),
    };
  }, before);
}

/** Documents in the store's messages collection, counted straight from IndexedDB (RxDB on Dexie). */
export async function storedMessageCount(page: Page): Promise<number> {
  return await page.evaluate(async () => {
    const all = await indexedDB.databases();
    const entry = all.find((d) => d.name && /--messages$/.test(d.name));
    if (!entry?.name) return 0;
    const name = entry.name;
    return await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const idb = open.result;
        const stores = Array.from(idb.objectStoreNames).filter((s) => s === 'docs');
        if (stores.length === 0) {
          idb.close();
          resolve(0);
          return;
        }
        const req = idb
          .transaction(stores, 'readonly')
          .objectStore(stores[0] as string)
          .count();
        req.onsuccess = () => {
          idb.close();
          resolve(req.result);
        };
        req.onerror = () => reject(req.error);
      };
    });
  });
}

export interface AwaitedRow {
  /** The Enter keydown's event time (performance.now() clock), when a key was pressed. */
  keyAt: number | null;
  /** The task after the first frame with the whole row in view (performance.now() clock). */
  paintedAt: number;
  /** paintedAt on the epoch clock (performance.timeOrigin + paintedAt). */
  paintedEpoch: number;
  /** When the browser presented the row (Element Timing), or paintedAt where it reported none. */
  presentedAt: number;
  /** presentedAt on the epoch clock. */
  presentedEpoch: number;
  /** Element Timing reported the row (else presentedAt is the after-frame stamp). */
  timed: boolean;
  /** Frames from Enter to the row's: 1 = the very next frame (null when no key was pressed). */
  frames: number | null;
}

/**
 * Watches for the row holding `text`; the promise it gives resolves with the row's stamps once painted.
 * Read from the probe's console message, like the first row: polling the page with waitForFunction every
 * 20 ms ran Playwright's evaluation on the main thread while the Enter it measured was being handled.
 */
export async function awaitRow(page: Page, text: string): Promise<{ painted: Promise<AwaitedRow> }> {
  const painted = nextStamp<AwaitedRow>(page, AWAITED_ROW_MESSAGE, 30_000).then((row) => {
    if (row === null) throw new Error(`no row holding "${text}" was painted within 30 s`);
    return row;
  });
  // Not left unhandled if the caller fails before reading it.
  painted.catch(() => undefined);
  await page.evaluate((t) => {
    const probe = (window as unknown as { __bench: { awaited: unknown; keyAt: number | null } }).__bench;
    probe.awaited = {
      text: t,
      seen: false,
      row: null,
      paintedAt: null,
      presentedAt: null,
      frame: null,
      waited: false,
      reported: false,
    };
    probe.keyAt = null;
  }, text);
  return { painted };
}

/**
 * The Event Timing API's duration for the key pressed at `keyAt`: from the event to the next paint after
 * its handlers, in ms (rounded to 8 ms by the browser); null when it reported none, i.e. under 16 ms.
 */
export async function keyToNextPaint(page: Page, keyAt: number): Promise<number | null> {
  return await page.evaluate((at) => {
    const probe = (
      window as unknown as { __bench: { eventTimings: { startTime: number; duration: number }[] } }
    ).__bench;
    const entry = probe.eventTimings.find((e) => Math.abs(e.startTime - at) < 1);
    return entry ? entry.duration : null;
  }, keyAt);
}

/**
 * The slowdown a throttled page actually runs at: a fixed loop timed in a blank page, then again with
 * `throttle(rate)` on (medians of five, after a warm-up). Printed beside the figures, so a slowdown that
 * silently stopped applying (as one did until 2026-12-01) shows in the output.
 */
export async function measuredSlowdown(
  browser: Browser,
  rate: number,
): Promise<{ plain: number; slowed: number }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto('about:blank');
    const loop = async () => {
      const times: number[] = [];
      for (let i = 0; i < 6; i++)
        times.push(
          await page.evaluate(() => {
            const t = performance.now();
            let s = 0;
            for (let k = 0; k < 2e7; k++) s += k % 7;
            return s < 0 ? 0 : performance.now() - t;
          }),
        );
      return times.slice(1).sort((a, b) => a - b)[2] as number;
    };
    await loop(); // the optimising compiler's turn
    const plain = await loop();
    await throttle(page, rate);
    const slowed = await loop();
    return { plain, slowed };
  } finally {
    await context.close();
  }
}
