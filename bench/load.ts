// The benchmark's load: N socket.io clients spread over channels, posting at a fixed total rate; measures
// send-to-receive latency (every other member of the channel receiving it) and acknowledged posts/s.
import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, Message, ServerToClientEvents } from '../schemas/protocol/index.ts';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface LoadTarget {
  url: string;
  institutionId: string;
  channelIds: string[];
  /** One token per client (the echo server ignores them). */
  tokens: string[];
}

export interface LoadOptions {
  ratePerSecond: number;
  seconds: number;
  /** Posts sent in these first seconds are delivered but not scored (JIT, first reads of each server). */
  warmUpSeconds?: number;
}

export interface LoadResult {
  sent: number;
  acked: number;
  ackErrors: number;
  /** The first refusal's message, so a broken run says why. */
  firstAckError: string | null;
  deliveries: number;
  expectedDeliveries: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * The same, over the posts after each sender's first one: a server that remembers something per sender
   * (Lantern's access, decision 0056) pays for it once, on the sender's first post.
   */
  p50LaterMs: number;
  p99LaterMs: number;
  ackedPerSecond: number;
}

const CONNECT_BATCH = 50;
/** After the last post, how long stragglers may still arrive before the run is scored. */
const DRAIN_MS = 5_000;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export function connect(url: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket: Client = io(url, {
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnection: false,
      timeout: 20_000,
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const clients: Client[] = [];
  for (let i = 0; i < target.tokens.length; i += CONNECT_BATCH) {
    const batch = target.tokens.slice(i, i + CONNECT_BATCH).map((t) => connect(target.url, t));
    clients.push(...(await Promise.all(batch)));
  }
  const channelOf = (i: number) => target.channelIds[i % target.channelIds.length] as string;
  const membersPerChannel = new Map<string, number>();
  clients.forEach((_, i) => {
    membersPerChannel.set(channelOf(i), (membersPerChannel.get(channelOf(i)) ?? 0) + 1);
  });

  // Each client is a person with the channel open: its room joined, and the channel's screen reported
  // open, as the app's worker does when a tab shows it (visitChannel).
  for (const event of ['joinChannel', 'visitChannel'] as const)
    await Promise.all(
      clients.map(
        (socket, i) =>
          new Promise<void>((resolve, reject) => {
            socket.emit(event, { institutionId: target.institutionId, channelId: channelOf(i) }, (r) =>
              'error' in r ? reject(new Error(r.error.message)) : resolve(),
            );
          }),
      ),
    );

  const sentAt = new Map<string, { at: number; sender: number; first: boolean }>();
  const hasPosted = new Set<number>();
  let start = performance.now();
  const latencies: number[] = [];
  const laterLatencies: number[] = [];
  let deliveries = 0;
  clients.forEach((socket, i) => {
    socket.on('newMessage', (m: Message) => {
      const sent = sentAt.get(m.genId);
      if (!sent || sent.sender === i) return;
      deliveries += 1;
      if (sent.at - start < warmUpMs) return;
      const latency = performance.now() - sent.at;
      latencies.push(latency);
      if (!sent.first) laterLatencies.push(latency);
    });
  });

  let sent = 0;
  let acked = 0;
  let ackErrors = 0;
  let firstAckError: string | null = null;
  let lastAckAt = 0;
  let expectedDeliveries = 0;
  const durationMs = options.seconds * 1000;
  const warmUpMs = (options.warmUpSeconds ?? 0) * 1000;
  let next = 0;
  start = performance.now();
  await new Promise<void>((resolve) => {
    // A 5 ms tick catches up to the number of posts the rate calls for so far: a fixed rate, not a
    // closed loop, so a slow server shows up as latency rather than as a lower offered load.
    const timer = setInterval(() => {
      const elapsed = performance.now() - start;
      const due = Math.min(
        Math.floor((elapsed / 1000) * options.ratePerSecond),
        Math.floor((durationMs / 1000) * options.ratePerSecond),
      );
      while (sent < due) {
        const sender = next % clients.length;
        next += 1;
        const socket = clients[sender] as Client;
        const channelId = channelOf(sender);
        const genId = randomUUID();
        sentAt.set(genId, { at: performance.now(), sender, first: !hasPosted.has(sender) });
        hasPosted.add(sender);
        expectedDeliveries += (membersPerChannel.get(channelId) ?? 1) - 1;
        sent += 1;
        socket.emit(
          'postMessage',
          { institutionId: target.institutionId, channelId, genId, content: `<p>bench ${sent}</p>` },
          (r) => {
            if ('error' in r) {
              ackErrors += 1;
              firstAckError ??= r.error.message;
            } else acked += 1;
            lastAckAt = performance.now();
          },
        );
      }
      if (elapsed >= durationMs) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
  const sendingMs = performance.now() - start;

  const drainUntil = performance.now() + DRAIN_MS;
  while (performance.now() < drainUntil && (acked + ackErrors < sent || deliveries < expectedDeliveries)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const ackWindowMs = Math.max(sendingMs, lastAckAt - start);
  for (const socket of clients) socket.disconnect();

  latencies.sort((a, b) => a - b);
  laterLatencies.sort((a, b) => a - b);
  return {
    sent,
    acked,
    ackErrors,
    firstAckError,
    deliveries,
    expectedDeliveries,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    p50LaterMs: percentile(laterLatencies, 50),
    p99LaterMs: percentile(laterLatencies, 99),
    // Over the time from the first post to the last ack (at least the sending time).
    ackedPerSecond: acked / (ackWindowMs / 1000),
  };
}
