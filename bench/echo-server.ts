// The floor for the delivery benchmark: a bare socket.io server speaking the same events as Lantern
// (joinChannel, visitChannel, postMessage → newMessage to the channel's room + ack) with no auth,
// database or checks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import type { ClientToServerEvents, Message, ServerToClientEvents } from '../schemas/protocol/index.ts';

export interface EchoServer {
  url: string;
  close(): Promise<void>;
}

export async function startEchoServer(): Promise<EchoServer> {
  const httpServer = http.createServer();
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
    transports: ['websocket'],
    maxHttpBufferSize: 1_000_000,
    serveClient: false,
  });
  let seq = 0;
  io.on('connection', (socket) => {
    socket.on('joinChannel', (p, ack) => {
      socket.join(`channel:${p.channelId}`);
      ack({ ok: true });
    });
    socket.on('visitChannel', (_p, ack) => ack({ ok: true }));
    socket.on('postMessage', (p, ack) => {
      seq += 1;
      const now = new Date().toISOString();
      const message: Message = {
        id: String(seq),
        genId: p.genId,
        channelId: p.channelId,
        institutionId: p.institutionId,
        memberId: socket.id,
        content: p.content,
        replyTo: null,
        attachments: [],
        mentions: [],
        createdAt: now,
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
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => io.close().then(() => undefined),
  };
}
