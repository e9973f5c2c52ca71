// Which stored data each server secret protects (server/secrets.ts): a missing key is generated only when
// these say nothing depends on it yet.
import { sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { mcpConnections, pushSubscriptions } from './db/schema.ts';
import type { SecretDependents } from './secrets.ts';

export function secretDependents(db: Db): SecretDependents {
  return {
    // Every saved MCP connection keeps its variables encrypted with it (an empty set too).
    mcpEncryptionKey: async () => {
      const [row] = await db.select({ one: sql<number>`1` }).from(mcpConnections).limit(1);
      return row !== undefined;
    },
    // Browsers subscribed with the public key derived from it; a new key would silence all of them.
    vapidPrivateKey: async () => {
      const [row] = await db.select({ one: sql<number>`1` }).from(pushSubscriptions).limit(1);
      return row !== undefined;
    },
  };
}
