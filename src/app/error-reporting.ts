// Client error reporting, kept out of the first paint: once the page has loaded, a channel's first rows are
// painted (its answer's schema brings zod: decision 0062) and the browser is idle, the run-time
// configuration is read and, only when the server names a DSN (never in development), the
// Sentry chunk is loaded and started (src/app/error-reporting-sentry.ts). Decision 0040.
import { afterFirstRows } from '../first-screen/rows-painted.ts';
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
  const loaded = () => afterFirstRows(idle);
  if (document.readyState === 'complete') loaded();
  else window.addEventListener('load', loaded, { once: true });
}
