// Client error reporting, kept out of the first paint: once the page has loaded and the browser is idle,
// the run-time configuration is read and, only when the server names a DSN (never in development), the
// Sentry chunk is loaded and started (src/app/error-reporting-sentry.ts). Decision 0040.
import { clientConfig } from './client-config.ts';

async function start(): Promise<void> {
  const config = await clientConfig();
  if (!config.errorReporting) return;
  const { startSentry } = await import('./error-reporting-sentry.ts');
  startSentry(config.environment, config.errorReporting);
}

/** Schedules the start after first paint; failures are only logged (spec §8: request-level errors). */
export function startErrorReportingAfterFirstPaint(): void {
  const run = () =>
    void start().catch((error: unknown) => console.warn('Error reporting could not start', error));
  const idle = () =>
    'requestIdleCallback' in window
      ? window.requestIdleCallback(run, { timeout: 5_000 })
      : setTimeout(run, 1);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
