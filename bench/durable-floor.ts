// The floor for the ingest benchmark: a bare socket.io server doing only the essential durable work of a
// post, the obvious way, on the very database Lantern's server uses in the same run: one transaction per
// message (bump the channel's sequence, insert the row with its unique client id), then acknowledge and
// broadcast to the channel's room. No sign-in, membership, permissions, unread counts or activities.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Server } from 'socket.io';
import type { ClientToServerEvents, Message, ServerToClientEvents } from '../schemas/protocol/index.ts';
import type { Db } from '../server/db/client.ts';

export interface FloorServer {
  url: string;
  close(): Promise<void>;
}

export async function startDurableFloor(db: Db): Promise<FloorServer> {
  const httpServer = http.createServer();
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    transports: ['websocket'],
    serveClient: false,
  });
  io.on('connection', (socket) => {
    socket.on('joinChannel', (p, ack) => {
      socket.join(`channel:${p.channelId}`);
      ack({ ok: true });
    });
    socket.on('postMessage', async (p, ack) => {
      try {
        const id = randomUUID();
        const createdAt = new Date();
        const seq = await db.transaction(async (tx) => {
          const bumped = (await tx.execute(
            sql`UPDATE channels SET last_seq = last_seq + 1 WHERE id = ${p.channelId} RETURNING last_seq`,
          )) as unknown as { rows: { last_seq: string | number }[] };
          const next = Number(bumped.rows[0]?.last_seq);
          await tx.execute(
            sql`INSERT INTO messages (id, gen_id, channel_id, institution_id, member_id, content, created_at, seq, created_seq)
                VALUES (${id}, ${p.genId}, ${p.channelId}, ${p.institutionId}, ${socket.id}, ${p.content},
                        ${createdAt.toISOString()}::timestamptz, ${next}, ${next})`,
          );
          return next;
        });
        const message: Message = {
          id,
          genId: p.genId,
          channelId: p.channelId,
          institutionId: p.institutionId,
          memberId: socket.id,
          content: p.content,
          replyTo: null,
          attachments: [],
          mentions: [],
          createdAt: createdAt.toISOString(),
          editedAt: null,
          deletedAt: null,
          seq,
          createdSeq: seq,
          reactions: [],
          isPinned: false,
          poll: null,
          forwardedFrom: null,
          agentAnswer: null,
        };
        io.to(`channel:${p.channelId}`).emit('newMessage', message);
        ack(message);
      } catch (err) {
        ack({ error: { message: err instanceof Error ? err.message : String(err) } });
      }
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => io.close().then(() => undefined),
  };
}
