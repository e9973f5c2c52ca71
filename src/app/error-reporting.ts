// Client error reporting, kept out of the first paint: once the page has loaded and the browser is idle,
// the run-time configuration is read and, only when the server names a DSN (never in development), the
// Sentry chunk is loaded and started (src/app/error-reporting-sentry.ts). Decision 0040.
import { clientConfigResponse } from '../../schemas/protocol/client-config.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../schemas/protocol/version.ts';

async function start(): Promise<void> {
  const res = await fetch('/api/client-config', { headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) } });
  if (!res.ok) return;
  const parsed = clientConfigResponse.safeParse(await res.json());
  if (!parsed.success || !parsed.data.errorReporting) return;
  const { startSentry } = await import('./error-reporting-sentry.ts');
  startSentry(parsed.data.environment, parsed.data.errorReporting);
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
