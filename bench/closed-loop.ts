// The ingest benchmark's load: senders each post in a closed loop (the next post as soon as the previous
// one is acknowledged), listeners only receive; everyone sits in one of the target's channels (client i in
// channel i mod channels, senders first). Measures acknowledged posts/s, ack latency and deliveries.
import { randomUUID } from 'node:crypto';
import type { Message } from '../schemas/protocol/index.ts';
import { type Client, connect, type LoadTarget, percentile } from './load.ts';

export interface ClosedLoopOptions {
  senders: number;
  seconds: number;
}

export interface ClosedLoopResult {
  acked: number;
  ackErrors: number;
  firstAckError: string | null;
  deliveries: number;
  expectedDeliveries: number;
  ackedPerSecond: number;
  ackP50Ms: number;
  ackP99Ms: number;
}

const CONNECT_BATCH = 50;
/** After the senders stop, how long broadcasts may still arrive before the run is scored. */
const DRAIN_MS = 5_000;

export async function runClosedLoop(
  target: LoadTarget,
  options: ClosedLoopOptions,
): Promise<ClosedLoopResult> {
  const clients: Client[] = [];
  for (let i = 0; i < target.tokens.length; i += CONNECT_BATCH) {
    const batch = target.tokens.slice(i, i + CONNECT_BATCH).map((t) => connect(target.url, t));
    clients.push(...(await Promise.all(batch)));
  }
  const channelOf = (i: number) => target.channelIds[i % target.channelIds.length] as string;
  const inChannel = new Map<string, number>();
  clients.forEach((_, i) => {
    inChannel.set(channelOf(i), (inChannel.get(channelOf(i)) ?? 0) + 1);
  });
  await Promise.all(
    clients.map(
      (socket, i) =>
        new Promise<void>((resolve, reject) => {
          socket.emit('joinChannel', { institutionId: target.institutionId, channelId: channelOf(i) }, (r) =>
            'error' in r ? reject(new Error(r.error.message)) : resolve(),
          );
        }),
    ),
  );

  const ours = new Set<string>();
  let deliveries = 0;
  for (const socket of clients)
    socket.on('newMessage', (m: Message) => {
      if (ours.has(m.genId)) deliveries += 1;
    });

  let acked = 0;
  let ackErrors = 0;
  let firstAckError: string | null = null;
  let expectedDeliveries = 0;
  const latencies: number[] = [];
  const start = performance.now();
  const stopAt = start + options.seconds * 1000;
  let lastAckAt = start;
  const sender = async (i: number) => {
    const socket = clients[i] as Client;
    const channelId = channelOf(i);
    while (performance.now() < stopAt) {
      const genId = randomUUID();
      ours.add(genId);
      const sentAt = performance.now();
      const r = await new Promise<Message | { error: { message: string } }>((resolve) =>
        socket.emit(
          'postMessage',
          { institutionId: target.institutionId, channelId, genId, content: `<p>ingest ${i}</p>` },
          resolve,
        ),
      );
      lastAckAt = performance.now();
      if ('error' in r) {
        ackErrors += 1;
        firstAckError ??= r.error.message;
        continue;
      }
      acked += 1;
      // Every socket in the channel, the sender's own included, receives the broadcast.
      expectedDeliveries += inChannel.get(channelId) ?? 0;
      latencies.push(lastAckAt - sentAt);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.senders, clients.length) }, (_, i) => sender(i)));
  const ackWindowMs = lastAckAt - start;

  const drainUntil = performance.now() + DRAIN_MS;
  while (performance.now() < drainUntil && deliveries < expectedDeliveries)
    await new Promise((r) => setTimeout(r, 50));
  for (const socket of clients) socket.disconnect();
  latencies.sort((a, b) => a - b);
  return {
    acked,
    ackErrors,
    firstAckError,
    deliveries,
    expectedDeliveries,
    ackedPerSecond: acked / (ackWindowMs / 1000),
    ackP50Ms: percentile(latencies, 50),
    ackP99Ms: percentile(latencies, 99),
  };
}
