// The lazily loaded half of client error reporting: @sentry/react with the spec's sampling (§9), session
// replay with every text, input and medium masked, and every event, transaction and breadcrumb scrubbed by
// schemas/error-report.ts before it leaves (no message content, tokens or e-mail addresses).
import * as Sentry from '@sentry/react';
import { ERROR_REPORT_COLLECTION, scrubErrorEvent } from '../../schemas/error-report.ts';
import type { ClientConfig, DeploymentEnvironment } from '../../schemas/protocol/client-config.ts';

export function startSentry(
  environment: DeploymentEnvironment,
  reporting: NonNullable<ClientConfig['errorReporting']>,
): void {
  if (environment === 'development') return;
  Sentry.init({
    dsn: reporting.dsn,
    environment,
    tracesSampleRate: reporting.tracesSampleRate,
    replaysSessionSampleRate: reporting.replaysSessionSampleRate,
    replaysOnErrorSampleRate: reporting.replaysOnErrorSampleRate,
    dataCollection: ERROR_REPORT_COLLECTION,
    traceLifecycle: 'static',
    integrations: [
      Sentry.browserTracingIntegration(),
      // Replays show layout and clicks, never what anyone wrote or uploaded.
      Sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true }),
    ],
    beforeSend: (event) => scrubErrorEvent(event),
    beforeSendTransaction: (event) => scrubErrorEvent(event),
    beforeBreadcrumb: (breadcrumb) => scrubErrorEvent(breadcrumb),
  });
}
