// Floods as a stranger would send them: REST requests from one IP or one account answer 429 with a
// sentence and recover after the window; the count holds across nodes through Redis; a socket sending
// events faster than its budget is refused, then disconnected if it keeps on.
import { randomBytes } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../schemas/protocol/index.ts';
import { loadConfig } from '../../server/config.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';

/** A made-up client address per test, passed through one trusted proxy hop, so tests never share a count. */
const freshIp = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

async function get(baseUrl: string, url: string, ip: string, token?: string) {
  const res = await fetch(new URL(url, baseUrl), {
    headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as ErrorBody,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databases)('REST rate limits on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: {
        TRUST_PROXY: '1',
        RATE_LIMIT_WINDOW_SECONDS: '2',
        RATE_LIMIT_PER_IP: '20',
        RATE_LIMIT_PER_USER: '10',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a flood from one IP with 429 and a sentence, spares other IPs, and recovers', async () => {
    const flooder = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await get(t.url, '/api/users', flooder)).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const refused = await get(t.url, '/api/users', flooder);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many requests from this network. Wait a moment and try again.');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await get(t.url, '/api/users', freshIp())).status).toBe(401);

    await sleep(2100);
    expect((await get(t.url, '/api/users', flooder)).status).toBe(401);
  });

  it('limits one account however many IPs it comes from', async () => {
    const { token } = await t.signUp();
    for (let i = 0; i < 10; i++) expect((await get(t.url, '/api/users', freshIp(), token)).status).toBe(200);
    const refused = await get(t.url, '/api/users', freshIp(), token);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many requests. Wait a moment and try again.');
    const other = await t.signUp();
    expect((await get(t.url, '/api/users', freshIp(), other.token)).status).toBe(200);
  });
});

describe.each(databases)('client IP without a trusted proxy on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { RATE_LIMIT_WINDOW_SECONDS: '60', RATE_LIMIT_PER_IP: '5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ignores X-Forwarded-For by default, so a made-up header does not escape the per-IP limit', async () => {
    for (let i = 0; i < 5; i++) expect((await get(t.url, '/api/users', freshIp())).status).toBe(401);
    const refused = await get(t.url, '/api/users', freshIp());
    expect(refused.status).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or a list of proxies, reads true as one hop, and refuses anything else', () => {
    const base = { DATA_DIR: '/tmp/x' };
    expect(loadConfig({ ...base }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.168.1.1' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '*' })).toThrow(/TRUST_PROXY/);
  });
});

describe.each(databases)('socket event budget on %s', (kind) => {
  let t: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { SOCKET_EVENT_BURST: '5', SOCKET_EVENTS_PER_SECOND: '1' } });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses events beyond the budget with "Too many requests", then disconnects a socket that keeps on', async () => {
    const { token } = await t.signUp();
    const socket = connect(t.url, { auth: { token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const send = () =>
      socket.timeout(2000).emitWithAck('postMessage', {}) as Promise<{ error?: { message: string } }>;

    const answers = await Promise.all(Array.from({ length: 6 }, send));
    const messages = answers.map((a) => a.error?.message);
    expect(messages.slice(0, 5).every((m) => m !== 'Too many requests. Wait a moment and try again.')).toBe(
      true,
    );
    expect(messages[5]).toBe('Too many requests. Wait a moment and try again.');

    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    for (let i = 0; i < 10; i++) socket.emit('postMessage', {});
    expect(await closed).toBe('io server disconnect');
  });
});

const { REDIS_URL } = process.env;
const withRedis = REDIS_URL ? describe : describe.skip;

withRedis('REST rate limits across two nodes sharing Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = {
      REDIS_URL: REDIS_URL ?? '',
      TRUST_PROXY: '1',
      RATE_LIMIT_WINDOW_SECONDS: '5',
      RATE_LIMIT_PER_IP: '10',
    };
    a = await startTestServer(databases[0] ?? 'pglite', { env });
    b = await startTestServer(databases[0] ?? 'pglite', { env });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('counts one IP’s requests on both nodes together', async () => {
    const flooder = freshIp();
    for (let i = 0; i < 5; i++) expect((await get(a.url, '/api/users', flooder)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await get(b.url, '/api/users', flooder)).status).toBe(401);
    expect((await get(a.url, '/api/users', flooder)).status).toBe(429);
    expect((await get(b.url, '/api/users', flooder)).status).toBe(429);
  });
});
