// Broadcasts to very large rooms written a slice at a time (issue 11 item 3). A broadcast is written to each
// socket of the room in one go: presence to a workspace of 2,000 people is 2,000 socket writes, 300–400 ms
// on this machine during which no post, sign-in or read is served. A broadcast marked `paced` (it carries
// PACED in its `except` list, which, like the channel audience's mark, holds no sockets and travels with
// the broadcast through the Redis adapter to every node) is written SOCKETS_PER_TURN sockets per turn of
// the event loop instead, on every node that delivers it.
//
// Order: paced broadcasts share one queue, taken strictly in order, so every socket receives them in the
// order they were sent. Only presence is paced: it is never the answer to anything a client waits on.
import type { LanternServer } from './types.ts';

/** The mark a paced broadcast carries in `except` (server/realtime/presence.ts). */
export const PACED = 'paced:';

/** Socket writes per turn of the event loop: about 10–30 ms of writing here. */
export const SOCKETS_PER_TURN = 200;

interface Delivering {
  data: unknown;
}
type Deliver = (socket: Delivering) => void;
interface Applying {
  apply(opts: { rooms: Set<string>; except?: Set<string> }, deliver: Deliver): void;
}

interface Job {
  sockets: Delivering[];
  deliver: Deliver;
  next: number;
}

export function installPacedDelivery(io: LanternServer, perTurn = SOCKETS_PER_TURN): void {
  const adapter = io.of('/').adapter as unknown as Applying;
  const apply = adapter.apply.bind(adapter);
  const queue: Job[] = [];
  let pumping = false;

  const pump = () => {
    let budget = perTurn;
    while (budget > 0 && queue.length > 0) {
      const job = queue[0] as Job;
      const end = Math.min(job.sockets.length, job.next + budget);
      budget -= end - job.next;
      // A socket that disconnected meanwhile is skipped by socket.io's own write.
      for (; job.next < end; job.next++) job.deliver(job.sockets[job.next] as Delivering);
      if (job.next >= job.sockets.length) queue.shift();
    }
    if (queue.length > 0) setImmediate(pump);
    else pumping = false;
  };

  adapter.apply = (opts, deliver) => {
    if (!opts.except?.has(PACED)) return apply(opts, deliver);
    const sockets: Delivering[] = [];
    apply(opts, (socket) => sockets.push(socket));
    if (sockets.length === 0) return;
    // A room within one slice, with nothing queued before it, is written at once, as unpaced.
    if (queue.length === 0 && sockets.length <= perTurn) {
      for (const socket of sockets) deliver(socket);
      return;
    }
    queue.push({ sockets, deliver, next: 0 });
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  };
}
