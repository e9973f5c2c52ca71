// The child side of bench/connections.ts: opens one socket per token, 50 at a time, reports when all are
// connected, and holds them open until told to close.
import { type Client, connect } from './load.ts';

interface Job {
  url: string;
  tokens: string[];
}

const CONNECT_BATCH = 50;
const sockets: Client[] = [];

process.on('message', (job: Job | 'close') => {
  if (job === 'close') {
    for (const s of sockets) s.disconnect();
    process.send?.({ closed: true }, () => process.exit(0));
    return;
  }
  void (async () => {
    const started = performance.now();
    try {
      for (let i = 0; i < job.tokens.length; i += CONNECT_BATCH) {
        const batch = job.tokens.slice(i, i + CONNECT_BATCH).map((t) => connect(job.url, t));
        sockets.push(...(await Promise.all(batch)));
      }
      process.send?.({ connected: sockets.length, ms: performance.now() - started });
    } catch (err) {
      process.send?.({ error: String(err) });
    }
  })();
});
