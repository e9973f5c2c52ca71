// Entry point of `npm run serve`: read the configuration, start one server, and shut it down cleanly on
// SIGINT/SIGTERM (sockets, HTTP, then the database, so an embedded PGlite can be reopened at once).
import path from 'node:path';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
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

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received, shutting down`);
  // A hung close must not keep the process (and PGlite's files) forever.
  const deadline = setTimeout(() => {
    log.error('shutdown took too long, exiting');
    process.exit(1);
  }, 10_000);
  deadline.unref();
  try {
    await server.close();
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}

process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
