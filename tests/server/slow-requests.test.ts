// A request the server works on for too long is in the log while it runs and when it ends; a quick one, or
// one slow only because its client sends the body slowly, leaves nothing. Real Fastify and pino, on a port.
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { reportSlowRequests } from '../../server/operations/slow-requests.ts';

interface Line {
  msg: string;
  reqId?: string;
  method?: string;
  route?: string;
  status?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(): Promise<{ url: string; port: number; lines: Line[]; release: () => void }> {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s) as Line) });
  app = Fastify();
  reportSlowRequests(app, log, { thresholdMs: 300, sweepMs: 25 });
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  app.get('/held/:id', async () => {
    await held;
    return { ok: true };
  });
  app.get('/quick', async () => ({ ok: true }));
  app.post('/echo', async (request) => request.body);
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.put('/stream', { config: { readsItsBody: true } }, async (request) => {
      for await (const _ of request.raw);
      return { ok: true };
    });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, port: Number(new URL(url).port), lines, release };
}

/** Sends a request's head at once and its body in pieces over `ms`, as a slow phone would. */
async function sendSlowly(port: number, method: string, path: string, body: string, ms: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
  );
  const pieces = 4;
  const size = Math.ceil(body.length / pieces);
  for (let i = 0; i < pieces; i++) {
    await sleep(ms / pieces);
    socket.write(body.slice(i * size, (i + 1) * size));
  }
  let answer = '';
  socket.on('data', (d) => {
    answer += d;
  });
  await new Promise((r) => socket.once('close', r));
  return answer;
}

describe('slow requests in the log', () => {
  it('says which request is still running, by its route and id, and again when it ends', async () => {
    const { url, lines, release } = await serve();
    const answer = fetch(`${url}/held/42?email=someone%40example.com`);
    await expect.poll(() => lines.length, { timeout: 5_000 }).toBe(1);
    expect(lines[0]).toMatchObject({ method: 'GET', route: '/held/:id' });
    expect(lines[0]?.msg).toMatch(/^A request has been running for \d+\.\d s$/);
    // The address is never logged: its query can hold an e-mail address or a signature.
    expect(JSON.stringify(lines)).not.toContain('example.com');
    const reqId = lines[0]?.reqId;
    expect(reqId).toBeTruthy();

    release();
    expect((await answer).status).toBe(200);
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[1]).toMatchObject({ reqId, route: '/held/:id', status: 200 });
    expect(lines[1]?.msg).toMatch(/^A slow request finished after \d+\.\d s$/);
  });

  it('writes nothing for quick requests, nor for a quick one whose client sent its body slowly', async () => {
    const { url, port, lines } = await serve();
    expect((await fetch(`${url}/quick`)).status).toBe(200);
    const slowBody = await sendSlowly(port, 'POST', '/echo', JSON.stringify({ words: 'x'.repeat(400) }), 800);
    expect(slowBody).toMatch(/^HTTP\/1\.1 200/);
    const upload = await sendSlowly(port, 'PUT', '/stream', 'y'.repeat(400), 800);
    expect(upload).toMatch(/^HTTP\/1\.1 200/);
    await sleep(100);
    expect(lines).toEqual([]);
  });
});
