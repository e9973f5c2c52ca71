// Pushes handed to the app's real service worker, and the app badges it and the page set. Headless
// Chromium cannot reach a real push service, so a push's payload (the local push service's decrypted one,
// or one a spec writes) goes to the worker through the DevTools protocol, as a push service's would.
// The Badging API is the browser's, not ours: its calls are recorded to see what the app asked for.
import type { BrowserContext, Page, Worker } from '@playwright/test';

/** Delivers `payload` (spec §3 fields, JSON) to the service worker registered for `serverUrl`, from `page`. */
export async function deliverPush(page: Page, serverUrl: string, payload: unknown): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const mine = registrations.find((r) => r.scopeURL.startsWith(serverUrl) && !r.isDeleted);
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(serverUrl).origin,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
  } finally {
    await cdp.detach();
  }
}

/** Records the page's setAppBadge / clearAppBadge calls, from the next navigation on: a count, or 0 for clear. */
export async function recordPageBadges(page: Page): Promise<() => Promise<number[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __badges: number[] };
    w.__badges = [];
    Object.defineProperty(Navigator.prototype, 'setAppBadge', {
      configurable: true,
      value: async (n?: number) => void w.__badges.push(n ?? 0),
    });
    Object.defineProperty(Navigator.prototype, 'clearAppBadge', {
      configurable: true,
      value: async () => void w.__badges.push(0),
    });
  });
  return () => page.evaluate(() => (window as unknown as { __badges: number[] }).__badges);
}

/** The app's service worker, its badge calls recorded from now on (a count, or 0 for clear). */
export async function recordWorkerBadges(
  context: BrowserContext,
): Promise<{ worker: Worker; badges: () => Promise<number[]> }> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate(() => {
    const scope = self as unknown as { navigator: object; __badges: number[] };
    scope.__badges = [];
    Object.defineProperty(scope.navigator, 'setAppBadge', {
      configurable: true,
      value: async (n?: number) => void scope.__badges.push(n ?? 0),
    });
    Object.defineProperty(scope.navigator, 'clearAppBadge', {
      configurable: true,
      value: async () => void scope.__badges.push(0),
    });
  });
  return {
    worker,
    badges: () => worker.evaluate(() => (self as unknown as { __badges: number[] }).__badges),
  };
}
