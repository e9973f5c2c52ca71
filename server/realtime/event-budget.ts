// A per-socket budget for client events: a token bucket of SOCKET_EVENT_BURST refilled at
// SOCKET_EVENTS_PER_SECOND, shared by every event the socket sends (one class: a message, a reaction and
// a visit cost the same). Over budget, an event is answered "Too many requests" without running; a socket
// that keeps sending a whole further burst while refused is disconnected. A socket lives on one node, so
// in-process counting is exact across nodes.
import type { Config } from '../config.ts';
import type { LanternSocket } from './types.ts';

export const TOO_MANY_EVENTS = 'Too many requests. Wait a moment and try again.';

type BudgetConfig = Pick<Config, 'SOCKET_EVENTS_PER_SECOND' | 'SOCKET_EVENT_BURST'>;

/** The bucket alone, with an injected clock. */
export class EventBucket {
  private tokens: number;
  private last: number;
  /** Events refused since the last one let through. */
  refusedInARow = 0;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.refusedInARow = 0;
      return true;
    }
    this.refusedInARow += 1;
    return false;
  }
}

/**
 * The budget's middleware for each socket. The bucket is made at the socket's first event: an idle
 * connection (most of them) holds only the middleware.
 */
export function eventBudget(config: BudgetConfig): { install(socket: LanternSocket): void } {
  const refuse = (socket: LanternSocket, bucket: EventBucket, packet: unknown[]) => {
    if (bucket.refusedInARow > config.SOCKET_EVENT_BURST) {
      socket.disconnect(true);
      return;
    }
    const ack = packet.at(-1);
    if (typeof ack === 'function')
      (ack as (response: unknown) => void)({ error: { message: TOO_MANY_EVENTS, retryable: true } });
  };
  return {
    install(socket) {
      let bucket: EventBucket | undefined;
      socket.use((packet, next) => {
        bucket ??= new EventBucket(config.SOCKET_EVENT_BURST, config.SOCKET_EVENTS_PER_SECOND, Date.now);
        if (bucket.take()) return next();
        refuse(socket, bucket, packet);
      });
    },
  };
}
