// A @fastify/rate-limit store over node-redis (the client the project already uses; the plugin's own Redis
// store expects ioredis), so every node counts the same requests. One Lua script makes INCR and the
// window's expiry a single atomic step: no key is left without a TTL if a node dies between the two.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { createClient } from 'redis';

type RedisClient = ReturnType<typeof createClient>;

/** Returns {count, ttl ms}; the first hit of a window starts its expiry. */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/** A store class bound to one connected client; every child (per-route options) shares the counters. */
export function redisCounterStore(client: RedisClient, prefix: string): FastifyRateLimitStoreCtor {
  class RedisCounterStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      client
        .eval(INCR_SCRIPT, { keys: [`${prefix}${key}`], arguments: [String(timeWindow)] })
        .then((reply) => {
          const [current, ttl] = reply as [number, number];
          callback(null, { current: Number(current), ttl: Number(ttl) });
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return RedisCounterStore;
}
