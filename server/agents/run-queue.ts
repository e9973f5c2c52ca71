// Runs wait their turn twice: one at a time per agent and channel, so a burst of mentions is answered in
// order instead of all at once; then for one of the workspace's run slots (slots.ts), so one
// workspace never has more than AGENT_RUNS_PER_WORKSPACE runs going. Queues belong to one server (keyed
// by its database handle), so several servers in one process never share them.
import type { Db } from '../db/client.ts';
import { Slots } from './slots.ts';

interface ServerQueues {
  pairs: Map<string, Promise<void>>;
  slots: Slots;
}

const queues = new WeakMap<Db, ServerQueues>();

export interface QueuedRun {
  institutionId: string;
  agentId: string;
  channelId: string;
  /** AGENT_RUNS_PER_WORKSPACE of the server that queues it. */
  runsPerWorkspace: number;
}

export function enqueueRun(db: Db, queued: QueuedRun, run: () => Promise<void>): Promise<void> {
  let perServer = queues.get(db);
  if (!perServer) {
    perServer = { pairs: new Map(), slots: new Slots(queued.runsPerWorkspace) };
    queues.set(db, perServer);
  }
  const { pairs, slots } = perServer;
  const key = `${queued.agentId}:${queued.channelId}`;
  const inSlot = () => slots.withSlot(queued.institutionId, run);
  const next = (pairs.get(key) ?? Promise.resolve()).then(inSlot, inSlot).catch(() => undefined);
  pairs.set(key, next);
  // The last run of a pair removes its queue entry, so idle pairs keep no memory.
  void next.then(() => {
    if (pairs.get(key) === next) pairs.delete(key);
  });
  return next;
}
