// Runs wait their turn per agent and channel: one at a time for each pair, so a burst of mentions is
// answered in order instead of all at once. Queues belong to one server (keyed by its database handle),
// so several servers in one process never share them.
import type { Db } from '../db/client.ts';

const queues = new WeakMap<Db, Map<string, Promise<void>>>();

export function enqueueRun(
  db: Db,
  agentId: string,
  channelId: string,
  run: () => Promise<void>,
): Promise<void> {
  let perServer = queues.get(db);
  if (!perServer) {
    perServer = new Map();
    queues.set(db, perServer);
  }
  const key = `${agentId}:${channelId}`;
  const next = (perServer.get(key) ?? Promise.resolve()).then(run, run).catch(() => undefined);
  perServer.set(key, next);
  // The last run of a pair removes its queue entry, so idle pairs keep no memory.
  void next.then(() => {
    if (perServer.get(key) === next) perServer.delete(key);
  });
  return next;
}
