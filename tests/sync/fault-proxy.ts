// A TCP proxy that injects faults between clients and the server: it can cut every connection, cut
// each one after a random number of bytes (mid-frame), and be paused (new connections are refused).
import net from 'node:net';

export interface FaultProxy {
  port: number;
  url: string;
  /** Upstream port (changes nothing if the server restarts on the same port). */
  target: number;
  /** When set, each new connection is cut after a byte budget drawn from this function (null: never). */
  setBudget(draw: (() => number | null) | null): void;
  /** Destroys every open connection now. */
  cutAll(): void;
  /** Refuses (closes) new connections until resume(). */
  pause(): void;
  resume(): void;
  openConnections(): number;
  close(): Promise<void>;
}

export async function startFaultProxy(target: number): Promise<FaultProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let draw: (() => number | null) | null = null;
  let paused = false;

  const server = net.createServer((client) => {
    if (paused) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    let budget = draw?.() ?? null;
    const cut = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (budget !== null) {
          if (chunk.length >= budget) {
            // Deliver a prefix, then cut: the peer sees a frame broken at a random point.
            to.write(chunk.subarray(0, budget));
            cut();
            return;
          }
          budget -= chunk.length;
        }
        to.write(chunk);
      });
    };
    forward(client, upstream);
    forward(upstream, client);
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', cut);
    upstream.on('close', cut);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    target,
    setBudget: (d) => {
      draw = d;
    },
    cutAll: () => {
      for (const p of [...pairs]) {
        pairs.delete(p);
        p.client.destroy();
        p.upstream.destroy();
      }
    },
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
    },
    openConnections: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const p of pairs) {
          p.client.destroy();
          p.upstream.destroy();
        }
        pairs.clear();
        server.close(() => resolve());
      }),
  };
}
