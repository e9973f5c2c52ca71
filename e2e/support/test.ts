// Playwright's `test`, with what a failed test leaves for the person reading CI's log (which keeps only the
// end of the output, and no trace): each page's last address, its console errors and warnings and its
// uncaught errors, and the end of the log of every Lantern server still up. A flake that passed on its
// retry is printed with its first failure too, so it names more than the assertion that gave up.
import { type Browser, type BrowserContext, test as base, type Page } from '@playwright/test';
import { runningServers } from './server.ts';

export * from '@playwright/test';

/** What a page said, kept as it happens: a failed test's own contexts are often closed by its report. */
interface PageNotes {
  page: Page;
  lines: string[];
}

/** RxDB's notice that its free storage is in use, printed by every tab and worker that opens a store. */
const isBanner = (text: string) => text.startsWith('-------------- RxDB Open Core RxStorage');

/** The newest lines a page keeps: the end of a long test is what explains its failure. */
const KEPT = 25;

function watchContexts(browser: Browser): { notes: PageNotes[]; stop(): void } {
  const notes: PageNotes[] = [];
  const watched = new WeakSet<BrowserContext>();
  const keep = (entry: PageNotes, line: string) => {
    entry.lines.push(line.slice(0, 400));
    if (entry.lines.length > KEPT) entry.lines.shift();
  };
  const watchPage = (page: Page) => {
    const entry: PageNotes = { page, lines: [] };
    notes.push(entry);
    page.on('console', (m) => {
      if ((m.type() === 'error' || m.type() === 'warning') && !isBanner(m.text()))
        keep(entry, `${m.type()}: ${m.text().split('\n')[0] ?? ''}`);
    });
    page.on('pageerror', (e) =>
      keep(entry, `uncaught: ${(e.stack ?? e.message).split('\n').slice(0, 3).join(' | ')}`),
    );
    page.on('crash', () => keep(entry, 'the page crashed'));
  };
  const watch = (context: BrowserContext) => {
    if (watched.has(context)) return;
    watched.add(context);
    for (const page of context.pages()) watchPage(page);
    context.on('page', watchPage);
  };
  for (const context of browser.contexts()) watch(context);
  // Every context of the test goes through here: its own `browser.newContext()` and the `page` fixture's.
  const own = Object.hasOwn(browser, 'newContext');
  const newContext = browser.newContext;
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const context = await newContext.apply(browser, args);
    watch(context);
    return context;
  };
  return {
    notes,
    stop() {
      if (own) browser.newContext = newContext;
      else delete (browser as { newContext?: unknown }).newContext;
    },
  };
}

/** One server log line as a person reads it: pino's JSON turned into time, level and message. */
function readable(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      time?: number;
      level?: number;
      msg?: string;
      err?: { message?: string };
    };
    const level = { 20: 'debug', 30: 'info', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' }[entry.level ?? 30] ?? '';
    const time = entry.time ? new Date(entry.time).toISOString().slice(11, 23) : '';
    return `${time} ${level} ${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
  } catch {
    return line;
  }
}

function report(notes: readonly PageNotes[]): string {
  const parts: string[] = [];
  for (const [i, { page, lines }] of notes.entries())
    parts.push(
      `page ${i + 1}${page.isClosed() ? ' (closed)' : ''}: ${page.url()}`,
      ...(lines.length ? lines : ['(no console error or warning)']).map((l) => `  ${l}`),
    );
  for (const server of runningServers()) {
    const ended = server.exited;
    const log = server.log().split('\n').filter(Boolean).slice(-30).map(readable);
    parts.push(
      `server ${server.url}${ended ? ` (it ended by itself: ${ended})` : ''}, the end of its log:`,
      ...log.map((l) => `  ${l}`),
    );
  }
  return parts.join('\n');
}

export const test = base.extend<{ failureReport: undefined }>({
  failureReport: [
    async ({ browser }, use, testInfo) => {
      const watching = watchContexts(browser);
      try {
        await use(undefined);
      } finally {
        watching.stop();
      }
      if (testInfo.status === testInfo.expectedStatus) return;
      const text = report(watching.notes);
      if (!text) return;
      // Printed, not only attached: the list reporter shows an attachment's first lines only.
      console.log(
        `\n── ${testInfo.titlePath.slice(1).join(' › ')} (try ${testInfo.retry + 1}): pages and servers at the failure\n${text}`,
      );
      await testInfo.attach('pages and servers at the failure', { body: text, contentType: 'text/plain' });
    },
    { auto: true },
  ],
});
