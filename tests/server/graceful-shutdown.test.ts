// SIGTERM while clients are posting: the server stops taking new work, answers the posts it is committing,
// closes the sockets and exits 0, and every post it acknowledged is in the database (decision 0040).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { createInstitutionResponse, JoinedChannels, Message } from '../../schemas/protocol/index.ts';
import { startTestServer } from './harness.ts';
import { connect, makeWorkspace } from './messaging-world.ts';
import { startServerProcess } from './server-process.ts';

describe('graceful shutdown', () => {
  it('answers a post that is running when the stop begins, then disconnects', async () => {
    const t = await startTestServer('pglite');
    try {
      const ws = await makeWorkspace(t);
      const socket = await connect(t, ws.owner.token);
      // The stop begins the moment the server has the post in hand (after the server's own middleware),
      // before its commit.
      let stopping: Promise<void> | undefined;
      for (const serverSocket of t.server.io.of('/').sockets.values())
        serverSocket.use((_packet, next) => {
          stopping ??= t.server.close();
          next();
        });
      const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      const genId = randomUUID();
      const ack = await socket.timeout(10_000).emitWithAck('postMessage', {
        institutionId: ws.id,
        channelId: ws.general.id,
        genId,
        content: '<p>late</p>',
      });
      expect((ack as Message).genId).toBe(genId);
      await disconnected;
      await stopping;
    } finally {
      await t.close();
    }
  }, 60_000);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-drain-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stores every post it acknowledged before exiting on SIGTERM', async () => {
    const server = await startServerProcess(dataDir);
    const owner = await server.signUp();
    const created = await owner.api.post<z.infer<typeof createInstitutionResponse>>('/api/institutions', {
      name: 'Drain',
    });
    const institutionId = created.body.institution.id;
    const joined = await owner.api.get<JoinedChannels>(`/api/institutions/${institutionId}/channels/joined`);
    const channelId = joined.body.channels[0]?.id as string;

    const acked = new Set<string>();
    let refused = 0;
    const sockets: Socket[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = io(server.url, {
        transports: ['websocket'],
        auth: { token: owner.token },
        reconnection: false,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      sockets.push(socket);
    }
    // Each socket keeps ten posts in flight until the server closes it.
    const pump = (socket: Socket) =>
      new Promise<void>((resolve) => {
        socket.once('disconnect', () => resolve());
        const send = () => {
          if (!socket.connected) return;
          const genId = randomUUID();
          socket.emit(
            'postMessage',
            { institutionId, channelId, genId, content: `<p>${genId}</p>` },
            (ack: { error?: unknown }) => {
              if (ack && typeof ack === 'object' && 'error' in ack) refused += 1;
              else acked.add(genId);
              send();
            },
          );
        };
        for (let k = 0; k < 10; k++) send();
      });
    const pumping = sockets.map(pump);
    while (acked.size < 60) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGTERM');
    await Promise.all(pumping);
    expect(await server.exited).toBe(0);
    expect(refused).toBe(0);

    const db = await PGlite.create(path.join(dataDir, 'db'));
    try {
      const { rows } = await db.query<{ gen_id: string }>(
        'select gen_id from messages where channel_id = $1',
        [channelId],
      );
      const stored = new Set(rows.map((r) => r.gen_id));
      const lost = [...acked].filter((g) => !stored.has(g));
      expect(lost).toEqual([]);
    } finally {
      await db.close();
    }
  }, 90_000);
});
