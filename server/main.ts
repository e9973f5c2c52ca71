// Entry point of `npm run serve`: read the configuration, start error reporting when configured (before the
// app's modules load, so its HTTP tracing sees them), start one server, and shut it down cleanly on
// SIGINT/SIGTERM: posts being committed are answered, then sockets, HTTP and the database close, so an
// embedded PGlite can be reopened at once.
import path from 'node:path';
import { loadConfig } from './config.ts';
import { flushErrorReports, startErrorReporting } from './operations/error-reporting.ts';

const config = loadConfig();
const reporting = await startErrorReporting(config);
const { createApp } = await import('./app.ts');
const server = await createApp(config);
const { url } = await server.listen();
const log = server.ctx.log;

log.info(`Lantern is running at ${url}`);
log.info(config.DATABASE_URL ? 'Database: PostgreSQL (DATABASE_URL)' : `Database: PGlite in ${config.dbDir}`);
log.info(
  config.SMTP_URL
    ? 'Sign-in codes are sent by e-mail over SMTP (SMTP_URL)'
    : `Sign-in codes are logged here and written to ${config.mailDir}${path.sep}`,
);
if (reporting) log.info(`Errors are reported to ${new URL(config.SENTRY_DSN ?? '').host} (SENTRY_DSN)`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received, shutting down`);
  // A hung close must not keep the process (and PGlite's files) forever.
  const deadline = setTimeout(() => {
    log.error('shutdown took too long, exiting');
    process.exit(1);
  }, 15_000);
  deadline.unref();
  try {
    await server.close();
    await flushErrorReports();
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}

process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
