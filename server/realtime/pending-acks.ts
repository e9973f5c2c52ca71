// The acknowledgements this node owes: every client event with a listener and an acknowledgement is counted
// from arrival to answer (the latency histogram of /metrics), and a stopping server waits for them before it
// disconnects, so a post whose commit is in flight is still answered (decision 0040).
import { performance } from 'node:perf_hooks';
import type { Metrics } from '../operations/metrics.ts';
import type { LanternSocket } from './types.ts';

export interface PendingAcks {
  /** Counts this socket's events; install after the event budget, so refused events are not counted. */
  install(socket: LanternSocket): void;
  /**
   * Stops running new events and resolves once every counted one was answered (or after `maxMs`). Events
   * arriving meanwhile are left unanswered, not refused: a refusal would make the client drop the message
   * or roll the action back, while no answer leaves it queued, to be resent once the client reconnects.
   */
  drain(maxMs: number): Promise<void>;
}

export function createPendingAcks(metrics: Metrics): PendingAcks {
  let pending = 0;
  let draining = false;
  let wake: (() => void) | null = null;

  return {
    install(socket) {
      socket.use((packet, next) => {
        const [event] = packet;
        const ack = packet.at(-1);
        if (draining) return;
        if (typeof ack !== 'function' || typeof event !== 'string' || socket.listenerCount(event) === 0)
          return next();
        pending += 1;
        const started = performance.now();
        let answered = false;
        packet[packet.length - 1] = (...response: unknown[]) => {
          if (!answered) {
            answered = true;
            pending -= 1;
            metrics.ackSeconds.observe({ event }, (performance.now() - started) / 1000);
            if (pending === 0) wake?.();
          }
          (ack as (...args: unknown[]) => void)(...response);
        };
        next();
      });
    },
    async drain(maxMs) {
      draining = true;
      if (pending === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, maxMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
  };
}
