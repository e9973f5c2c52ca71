// REST rate limits (@fastify/rate-limit): per client IP before anything else runs, then per signed-in user
// once the auth hook has named them. Counted in Redis when REDIS_URL is set, so a limit holds however many
// nodes the requests are spread over; in memory otherwise (one node).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { createClient } from 'redis';
import type { Config } from '../config.ts';
import { tooManyRequests } from '../errors.ts';
import { redisCounterStore } from './redis-counter-store.ts';

type RateLimitConfig = Pick<
  Config,
  'REDIS_URL' | 'RATE_LIMIT_WINDOW_SECONDS' | 'RATE_LIMIT_PER_IP' | 'RATE_LIMIT_PER_USER'
>;

/** Only the API is limited: the static client is cached files, and socket.io has its own budgets. */
const isApi = (request: FastifyRequest) => request.url.startsWith('/api/');

/**
 * Installs both limits; call it before the auth hook so that the per-IP check runs first (a flood of bad
 * tokens costs no database lookups). Returns a close for the Redis connection it may have opened.
 */
export async function installRateLimits(
  app: FastifyInstance,
  config: RateLimitConfig,
  log: Logger,
): Promise<{ close(): Promise<void>; pingRedis?: () => Promise<unknown> }> {
  let client: ReturnType<typeof createClient> | null = null;
  if (config.REDIS_URL) {
    // Loaded only with REDIS_URL: a single node never needs the driver (decision 0075).
    const { createClient } = await import('redis');
    client = createClient({ url: config.REDIS_URL });
    client.on('error', (err: unknown) => log.error({ err }, 'rate-limit redis error'));
    await client.connect();
  }
  const timeWindow = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  await app.register(rateLimit, {
    global: false,
    timeWindow,
    // A Redis outage must not take the API down with it: requests pass uncounted until it is back.
    skipOnError: true,
    ...(client ? { store: redisCounterStore(client, 'lantern:rate:') } : {}),
  });
  const perIp = app.createRateLimit({
    max: config.RATE_LIMIT_PER_IP,
    timeWindow,
    keyGenerator: (request) => `ip:${request.ip}`,
  });
  const perUser = app.createRateLimit({
    max: config.RATE_LIMIT_PER_USER,
    timeWindow,
    keyGenerator: (request) => `user:${request.auth?.userId ?? ''}`,
  });

  const check = async (
    limiter: typeof perIp,
    request: FastifyRequest,
    reply: FastifyReply,
    message: string,
  ) => {
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', String(result.ttlInSeconds));
    throw tooManyRequests(message, result.ttlInSeconds);
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!isApi(request)) return;
    await check(perIp, request, reply, 'Too many requests from this network. Wait a moment and try again.');
  });
  // preParsing runs after every onRequest hook, so the auth hook has set request.auth by now.
  app.addHook('preParsing', async (request, reply) => {
    if (!isApi(request) || !request.auth) return;
    await check(perUser, request, reply, 'Too many requests. Wait a moment and try again.');
  });

  const redis = client;
  return {
    async close() {
      if (client?.isOpen) await client.close();
    },
    // The readiness probe asks the same connection the limits count on.
    ...(redis ? { pingRedis: () => redis.ping() } : {}),
  };
}
