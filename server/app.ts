// Builds one Lantern server: database, secrets, mail, Fastify routes, socket.io and the static client.
// Nothing is global, so tests start several in one process; server/main.ts only adds listen and signals.

import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import pino from 'pino';
import { documentReading } from './agents/document-reading.ts';
import { closeAbandonedAnswers, closeRunningAnswers } from './agents/interrupted-answers.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { registerAccountRoutes } from './http/account.ts';
import { registerActivityRoutes } from './http/activities.ts';
import { registerAgentUsageRoutes } from './http/agent-usage.ts';
import { registerAgentRoutes } from './http/agents.ts';
import { registerAppVersionRoute } from './http/app-version.ts';
import { registerAuthRoutes } from './http/auth.ts';
import { authHook } from './http/auth-hook.ts';
import { registerChannelMemberRoutes } from './http/channel-members.ts';
import { registerChannelRequestRoutes } from './http/channel-requests.ts';
import { registerChannelRoleRoutes } from './http/channel-roles.ts';
import { registerChannelRoutes } from './http/channels.ts';
import { registerClientConfigRoute } from './http/client-config.ts';
import { registerCompression } from './http/compression.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerFileRoutes } from './http/files.ts';
import { registerGroupRoutes } from './http/groups.ts';
import { registerHealthRoutes } from './http/health.ts';
import { registerIdentityRoutes } from './http/identity.ts';
import { registerInstitutionRoutes } from './http/institutions.ts';
import { registerJsonParser } from './http/json.ts';
import { registerKnowledgeSourceRoutes } from './http/knowledge-sources.ts';
import { registerLinkPreviewRoutes } from './http/link-previews.ts';
import { registerLtiRoutes } from './http/lti.ts';
import { registerMcpRoutes } from './http/mcp.ts';
import { registerMessageListRoutes } from './http/message-lists.ts';
import { registerMessageRoutes } from './http/messages.ts';
import { registerMetricRoutes } from './http/metrics.ts';
import { registerOnboardingRoutes } from './http/onboarding.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerMetrics } from './http/prometheus.ts';
import { installProtocolVersionCheck } from './http/protocol-version.ts';
import { registerPushRoutes } from './http/push.ts';
import { installRateLimits } from './http/rate-limits.ts';
import { echoRequestId, requestIdOf } from './http/request-id.ts';
import { installRequestSchemas } from './http/request-schemas.ts';
import { registerSearchRoutes } from './http/search.ts';
import { registerSectionRoutes } from './http/sections.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerStatic } from './http/static.ts';
import { registerToolCallRoutes } from './http/tool-calls.ts';
import { registerUserRoutes } from './http/users.ts';
import { registerWorkspaceMemberRoutes } from './http/workspace-members.ts';
import { createMailer } from './mail/mailer.ts';
import { installMetricRollups } from './metrics/rollup-triggers.ts';
import { attachMetrics, createMetrics } from './operations/metrics.ts';
import { reportSlowRequests } from './operations/slow-requests.ts';
import { createRealtime, type Realtime } from './realtime/index.ts';
import { BODY_LIMITS } from './request-limits.ts';
import { secretDependents } from './secret-dependents.ts';
import { loadSecrets } from './secrets.ts';

export interface LanternServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** The socket.io server: rooms as this node sees them (tests replay a lost leave through it). */
  io: Realtime['io'];
  listen(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "believe the first n hops" (proxy-addr's rule). */
function fastifyTrustProxy(
  setting: Config['TRUST_PROXY'],
): boolean | string[] | ((a: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

/** How long a stopping server waits to close the agent answers it is running. */
const ANSWER_CLOSE_WAIT_MS = 3_000;
/**
 * How long a stopping server lets requests in flight finish before it cuts their connections. Without it a
 * client still sending a refused upload body (or a stalled keep-alive socket) holds the stop open for minutes.
 */
const HTTP_CLOSE_GRACE_MS = 5_000;
/** How long a stopping server waits for the socket events it is running (posts mid-commit) to be answered. */
const ACK_DRAIN_MS = 3_000;

export async function createApp(config: Config): Promise<LanternServer> {
  const log = pino({ level: config.LOG_LEVEL });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dbDir: config.dbDir,
    pgliteTemplate: config.pgliteTemplate,
    onIdleError: (error) => log.warn({ err: error }, 'Database connection lost; the pool reconnects'),
    log,
  });
  // The metrics rollups' triggers (decision 0038): before any request can write a counted row.
  await installMetricRollups(database.db).catch(async (err: unknown) => {
    await database.close();
    throw err;
  });
  const secrets = await loadSecrets(config.dataDir, secretDependents(database.db)).catch(
    async (err: unknown) => {
      await database.close();
      throw err;
    },
  );
  const mailer = createMailer(config, log);
  const metrics = createMetrics({ processMetrics: config.METRICS_TOKEN !== undefined });
  attachMetrics(database.db, metrics);

  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    // Small JSON unless a route says otherwise (server/request-limits.ts): refused with a 413 past it.
    bodyLimit: BODY_LIMITS.default,
    // One line per request is noise at info level; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // A load balancer's X-Request-Id when it is sane, else a fresh id (server/operations/request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdOf,
  });
  echoRequestId(app);
  reportSlowRequests(app, log as FastifyBaseLogger);
  // First, so that every answer (a 401 from the auth hook, a 404, an error) carries the headers too.
  await registerSecurityHeaders(app, config);
  await registerCompression(app);
  registerJsonParser(app);
  registerErrorHandler(app);
  const rateLimits = await installRateLimits(app, config, log);
  installProtocolVersionCheck(app, config.PROTOCOL_MIN_VERSION);
  authHook(app, database.db, config);
  installRequestSchemas(app);

  const deps = { config, db: database.db, log, mail: mailer, secrets, documents: documentReading(config) };
  // Services get the realtime layer only as the narrow controls of server/realtime-controls.ts.
  const {
    io,
    broadcast,
    drain: drainRealtime,
    close: closeRealtime,
    ...controls
  } = await createRealtime(app.server, deps, metrics);
  const ctx: AppContext = { ...deps, broadcast, realtime: controls };

  registerClientConfigRoute(app, config);
  registerAppVersionRoute(app, config);
  registerAuthRoutes(app, ctx, { mailToFiles: mailer.toFiles });
  registerIdentityRoutes(app, ctx, { mailToFiles: mailer.toFiles });
  registerUserRoutes(app, ctx);
  registerAccountRoutes(app, ctx, { mailToFiles: mailer.toFiles });
  registerInstitutionRoutes(app, ctx);
  registerChannelRoutes(app, ctx);
  registerChannelRoleRoutes(app, ctx);
  registerChannelMemberRoutes(app, ctx);
  registerChannelRequestRoutes(app, ctx);
  registerSectionRoutes(app, ctx);
  registerGroupRoutes(app, ctx);
  registerWorkspaceMemberRoutes(app, ctx);
  registerOnboardingRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerMessageListRoutes(app, ctx);
  registerActivityRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerLinkPreviewRoutes(app, ctx);
  registerAgentRoutes(app, ctx);
  registerKnowledgeSourceRoutes(app, ctx);
  registerAgentUsageRoutes(app, ctx);
  registerToolCallRoutes(app, ctx);
  registerMcpRoutes(app, ctx);
  registerLtiRoutes(app, ctx);
  registerPushRoutes(app, ctx);
  registerMetricRoutes(app, ctx);
  registerHealthRoutes(app, {
    db: database.db,
    ...(rateLimits.pingRedis ? { pingRedis: rateLimits.pingRedis } : {}),
  });
  registerMetrics(app, metrics, config.METRICS_TOKEN);
  await registerOpenApi(app);
  await registerStatic(app, config.CLIENT_DIR);
  await app.ready();
  // Without Redis this is the only node, so an answer still "thinking" was left by a crash.
  if (!config.REDIS_URL) {
    const closed = await closeAbandonedAnswers(ctx);
    if (closed > 0) log.info(`Closed ${closed} agent answer(s) interrupted by the last shutdown`);
  }

  let closing: Promise<void> | null = null;
  return {
    app,
    ctx,
    io,
    async listen() {
      await app.listen({ host: config.HOST, port: config.PORT });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
      return { url: `http://${host}:${port}`, port };
    },
    close() {
      // Sockets first (they hold the HTTP server open), then HTTP, then the database they both use.
      closing ??= (async () => {
        // Posts being committed are answered before anything closes; new sockets and events wait for the
        // next node (decision 0040).
        await drainRealtime(ACK_DRAIN_MS);
        // Answers this node is running say so before the sockets go (bounded: a stop must not hang).
        await Promise.race([
          closeRunningAnswers(ctx).catch(() => 0),
          new Promise((resolve) => setTimeout(resolve, ANSWER_CLOSE_WAIT_MS).unref()),
        ]);
        await closeRealtime();
        const cut = setTimeout(() => app.server.closeAllConnections(), HTTP_CLOSE_GRACE_MS);
        await app.close();
        clearTimeout(cut);
        await rateLimits.close();
        mailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}
