// Server error reporting through @sentry/node (Sentry or self-hosted GlitchTip): on only when SENTRY_DSN is
// set and the environment is not development. The SDK is process-wide, so it is started once by
// server/main.ts (before the app's modules load, so its HTTP tracing sees them), never by createApp; it is
// imported only then, so a server without a DSN never loads it. Every event and transaction is scrubbed
// by schemas/error-report.ts before it leaves (decision 0040).
import {
  ERROR_REPORT_COLLECTION,
  ERROR_REPORT_SAMPLING,
  scrubErrorEvent,
} from '../../schemas/error-report.ts';
import type { Config } from '../config.ts';

type SentryNode = typeof import('@sentry/node');

let sentry: SentryNode | null = null;

/** Starts reporting when configured for it; false (and nothing loaded) otherwise. */
export async function startErrorReporting(
  config: Pick<Config, 'SENTRY_DSN' | 'ENVIRONMENT'>,
): Promise<boolean> {
  if (!config.SENTRY_DSN || config.ENVIRONMENT === 'development') return false;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: config.SENTRY_DSN,
    environment: config.ENVIRONMENT,
    tracesSampleRate: ERROR_REPORT_SAMPLING.tracesSampleRate,
    // No user details, cookies, bodies or query strings are collected by the SDK itself.
    dataCollection: ERROR_REPORT_COLLECTION,
    beforeSend: (event) => scrubErrorEvent(event),
    // Our error handler reports every 500 itself, with its request id and route (server/http/errors.ts).
    integrations: [Sentry.fastifyIntegration({ shouldHandleError: () => false })],
    // Whole transactions (not streamed spans), so that beforeSendTransaction scrubs each before it leaves.
    traceLifecycle: 'static',
    beforeSendTransaction: (event) => scrubErrorEvent(event),
    beforeBreadcrumb: (breadcrumb) => scrubErrorEvent(breadcrumb),
  });
  sentry = Sentry;
  return true;
}

/** What the error handler knows of the request that failed (its body is never sent). */
export interface FailedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  route: string | undefined;
}

/** Reports an unexpected failure (a 500, a socket event that threw); nothing when reporting is off. */
export function reportError(err: unknown, where: FailedRequest | { event: string }): void {
  const Sentry = sentry;
  if (!Sentry) return;
  Sentry.captureException(err, (scope) => {
    if ('event' in where) return scope.setTag('socket.event', where.event);
    scope.setTag('request_id', where.requestId);
    if (where.route) scope.setTag('route', where.route);
    const [path = '', query = ''] = where.url.split('?', 2);
    return scope.addEventProcessor((event) => ({
      ...event,
      request: {
        method: where.method,
        url: path,
        query_string: query,
        headers: stringHeaders(where.headers),
      },
    }));
  });
}

function stringHeaders(headers: FailedRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Sends what is queued (a stopping server); bounded. */
export async function flushErrorReports(timeoutMs = 2_000): Promise<void> {
  await sentry?.flush(timeoutMs);
}
