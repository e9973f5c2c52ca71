// The Redis streams adapter between nodes (REDIS_URL): room broadcasts and fetchSockets() reach every
// node sharing the Redis. The stream survives short Redis hiccups without losing broadcasts.
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Logger } from 'pino';
import { createClient } from 'redis';

export interface RedisAdapter {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

export async function connectRedisAdapter(url: string, log: Logger): Promise<RedisAdapter> {
  const client = createClient({ url });
  client.on('error', (err: unknown) => log.error({ err }, 'redis client error'));
  await client.connect();
  return {
    // blockTimeInMs bounds how long the adapter's reader lingers after close (it stops after its XREAD).
    adapter: createAdapter(client, { blockTimeInMs: 1_000 }),
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
