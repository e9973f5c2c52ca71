// Builds one Lantern server: database, secrets, mail, Fastify routes, socket.io and the static client.
// Nothing is global, so tests start several in one process; server/main.ts only adds listen and signals.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import pino from 'pino';
import { closeAbandonedAnswers, closeRunningAnswers } from './agents/interrupted-answers.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { registerActivityRoutes } from './http/activities.ts';
import { registerAgentUsageRoutes } from './http/agent-usage.ts';
import { registerAgentRoutes } from './http/agents.ts';
import { registerAuthRoutes } from './http/auth.ts';
import { authHook } from './http/auth-hook.ts';
import { registerChannelMemberRoutes } from './http/channel-members.ts';
import { registerChannelRequestRoutes } from './http/channel-requests.ts';
import { registerChannelRoleRoutes } from './http/channel-roles.ts';
import { registerChannelRoutes } from './http/channels.ts';
import { registerErrorHandler } from './http/errors.ts';
import { registerFileRoutes } from './http/files.ts';
import { registerGroupRoutes } from './http/groups.ts';
import { registerInstitutionRoutes } from './http/institutions.ts';
import { registerJsonParser } from './http/json.ts';
import { registerKnowledgeSourceRoutes } from './http/knowledge-sources.ts';
import { registerMcpRoutes } from './http/mcp.ts';
import { registerMessageListRoutes } from './http/message-lists.ts';
import { registerMessageRoutes } from './http/messages.ts';
import { installRateLimits } from './http/rate-limits.ts';
import type { RouteContext } from './http/route-context.ts';
import { registerSearchRoutes } from './http/search.ts';
import { registerSectionRoutes } from './http/sections.ts';
import { registerStatic } from './http/static.ts';
import { registerToolCallRoutes } from './http/tool-calls.ts';
import { registerUserRoutes } from './http/users.ts';
import { registerWorkspaceMemberRoutes } from './http/workspace-members.ts';
import { createMailer } from './mail/mailer.ts';
import { createRealtime } from './realtime/index.ts';
import { loadSecrets } from './secrets.ts';

export interface LanternServer {
  app: FastifyInstance;
  ctx: AppContext;
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

/** Request bodies are small JSON (messages are capped at 40 kB of HTML); anything far larger is refused. */
const BODY_LIMIT = 1024 * 1024;

export async function createApp(config: Config): Promise<LanternServer> {
  const log = pino({ level: config.LOG_LEVEL });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dbDir: config.dbDir,
    onIdleError: (error) => log.warn({ err: error }, 'Database connection lost; the pool reconnects'),
  });
  const secrets = loadSecrets(config.dataDir);
  const mailer = createMailer(config, log);

  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT,
    // One line per request is noise at info level; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerJsonParser(app);
  registerErrorHandler(app);
  const rateLimits = await installRateLimits(app, config, log);
  authHook(app, database.db, config);

  const deps: Omit<AppContext, 'broadcast'> = { config, db: database.db, log, mail: mailer, secrets };
  const realtime = await createRealtime(app.server, deps);
  const ctx: AppContext = { ...deps, broadcast: realtime.broadcast };
  const routeCtx: RouteContext = { ...ctx, realtime };

  registerAuthRoutes(app, ctx, { mailToFiles: mailer.toFiles });
  registerUserRoutes(app, routeCtx);
  registerInstitutionRoutes(app, routeCtx);
  registerChannelRoutes(app, routeCtx);
  registerChannelRoleRoutes(app, routeCtx);
  registerChannelMemberRoutes(app, routeCtx);
  registerChannelRequestRoutes(app, routeCtx);
  registerSectionRoutes(app, routeCtx);
  registerGroupRoutes(app, routeCtx);
  registerWorkspaceMemberRoutes(app, routeCtx);
  registerMessageRoutes(app, ctx);
  registerMessageListRoutes(app, ctx);
  registerActivityRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerAgentRoutes(app, ctx);
  registerKnowledgeSourceRoutes(app, ctx);
  registerAgentUsageRoutes(app, ctx);
  registerToolCallRoutes(app, ctx);
  registerMcpRoutes(app, ctx);
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
        // Answers this node is running say so before the sockets go (bounded: a stop must not hang).
        await Promise.race([
          closeRunningAnswers(ctx).catch(() => 0),
          new Promise((resolve) => setTimeout(resolve, ANSWER_CLOSE_WAIT_MS).unref()),
        ]);
        await realtime.close();
        await app.close();
        await rateLimits.close();
        mailer.close();
        await database.close();
      })();
      return closing;
    },
  };
}
