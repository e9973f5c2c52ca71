// GET /api/client-config (open before sign-in): the deployment's environment and the client's error
// reporting with the spec's sampling. A DSN is meant to be public (browsers send to it); development gets
// none, so nothing is ever reported from it (decision 0040).
import type { FastifyInstance } from 'fastify';
import { ERROR_REPORT_SAMPLING } from '../../schemas/error-report.ts';
import type { ClientConfig } from '../../schemas/protocol/index.ts';
import type { Config } from '../config.ts';

/** The DSN the client reports to, or undefined: none configured, or a development deployment. */
export function clientErrorDsn(
  config: Pick<Config, 'SENTRY_DSN' | 'SENTRY_CLIENT_DSN' | 'ENVIRONMENT'>,
): string | undefined {
  if (config.ENVIRONMENT === 'development') return undefined;
  return config.SENTRY_CLIENT_DSN ?? config.SENTRY_DSN;
}

export function registerClientConfigRoute(app: FastifyInstance, config: Config): void {
  const dsn = clientErrorDsn(config);
  const answer: ClientConfig = {
    environment: config.ENVIRONMENT,
    errorReporting: dsn ? { dsn, ...ERROR_REPORT_SAMPLING } : null,
    fileMaxBytes: config.FILE_MAX_BYTES,
  };
  app.get('/api/client-config', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return answer;
  });
}
