// Paced broadcasts (server/realtime/paced-delivery.ts): a broadcast to a large room is written a slice of
// sockets per turn of the event loop, so the node serves other work between slices, and every socket still
// receives paced broadcasts in the order they were sent. A real socket.io server and real clients.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { type Socket as ClientSocket, io as connectClient } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacedDelivery, PACED } from '../../server/realtime/paced-delivery.ts';
import type { LanternServer } from '../../server/realtime/types.ts';

const PER_TURN = 10;
const ROOM = 'institution:paced';
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('paced delivery', () => {
  let server: Server;
  let httpServer: http.Server;
  const clients: ClientSocket[] = [];
  /** Packets written to server-side sockets so far. */
  let written = 0;

  async function connectMany(n: number, room: string): Promise<ClientSocket[]> {
    const { port } = httpServer.address() as AddressInfo;
    const made = await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<ClientSocket>((resolve, reject) => {
            const c = connectClient(`http://127.0.0.1:${port}`, {
              transports: ['websocket'],
              forceNew: true,
              reconnection: false,
              query: { room },
            });
            c.once('connect', () => resolve(c));
            c.once('connect_error', reject);
          }),
      ),
    );
    clients.push(...made);
    return made;
  }

  beforeAll(async () => {
    httpServer = http.createServer();
    server = new Server(httpServer, { transports: ['websocket'] });
    installPacedDelivery(server as unknown as LanternServer, PER_TURN);
    server.on('connection', (socket) => {
      socket.join(String(socket.handshake.query.room));
      socket.onAnyOutgoing(() => {
        written += 1;
      });
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server.close();
  });

  it('writes a large room a slice per turn, and each socket gets the broadcasts in the order sent', async () => {
    const members = await connectMany(35, ROOM);
    const heard = members.map((c) => {
      const got: number[] = [];
      c.on('tick', (n: number) => got.push(n));
      return got;
    });
    written = 0;
    for (const n of [1, 2, 3]) server.to(ROOM).except(PACED).emit('tick', n);
    // Nothing yet: the first slice is written on the next turn.
    expect(written).toBe(0);
    const perTurn: number[] = [];
    while (written < 35 * 3) {
      const before = written;
      await nextTurn();
      perTurn.push(written - before);
    }
    expect(Math.max(...perTurn)).toBe(PER_TURN);
    expect(perTurn.length).toBeGreaterThanOrEqual(Math.ceil((35 * 3) / PER_TURN));

    await expect.poll(() => heard.every((got) => got.length === 3), { timeout: 5_000 }).toBe(true);
    expect(heard.every((got) => got.join() === '1,2,3')).toBe(true);
  });

  it('writes a room within one slice at once, and an unmarked broadcast at once whatever its size', async () => {
    await connectMany(4, 'institution:small');
    written = 0;
    server.to('institution:small').except(PACED).emit('tick', 1);
    expect(written).toBe(4);

    written = 0;
    server.to(ROOM).emit('tick', 4);
    expect(written).toBe(35);
  });
});
