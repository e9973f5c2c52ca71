// The Redis streams adapter between nodes (REDIS_URL): room broadcasts and fetchSockets() reach every
// node sharing the Redis. The stream survives short Redis hiccups without losing broadcasts.
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Logger } from 'pino';
import { createClient } from 'redis';

export interface RedisAdapter {
  adapter: ReturnType<typeof createAdapter>;
  /**
   * Resolves once the adapter with this uid listens on its node's own channel (false after the time
   * limit): until then replies meant for this node are lost, and a close cuts the adapter's SUBSCRIBE
   * short, which it leaves as an unhandled rejection.
   */
  subscribed(adapterUid: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The adapter's default channel prefix and its naming of a node's own channel in namespace '/'. */
const ownChannel = (uid: string) => `socket.io#/#${uid}#`;
const SUBSCRIBE_WAIT_MS = 5_000;

export async function connectRedisAdapter(url: string, log: Logger): Promise<RedisAdapter> {
  const client = createClient({ url });
  client.on('error', (err: unknown) => log.error({ err }, 'redis client error'));
  await client.connect();
  return {
    // blockTimeInMs bounds how long the adapter's reader lingers after close (it stops after its XREAD).
    adapter: createAdapter(client, { blockTimeInMs: 1_000 }),
    async subscribed(adapterUid) {
      const channel = ownChannel(adapterUid);
      const deadline = Date.now() + SUBSCRIBE_WAIT_MS;
      while (Date.now() < deadline) {
        const counts = await client.pubSubNumSub(channel);
        if (Number(counts[channel] ?? 0) > 0) return true;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return false;
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
