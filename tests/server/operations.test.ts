// What an operator's tools see: /healthz and /readyz without a session, /metrics only with its token and
// labelled by route pattern, and a request id on every answer and in every error body (decision 0040).
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../schemas/protocol/index.ts';
import { registerMetrics } from '../../server/http/prometheus.ts';
import { createMetrics } from '../../server/operations/metrics.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll, makeWorkspace } from './messaging-world.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('operations endpoints', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite', { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });
  const get = (p: string, headers: Record<string, string> = {}) => fetch(new URL(p, t.url), { headers });

  it('answers /healthz and /readyz without a session, naming each check and no secrets', async () => {
    const health = await get('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', redis: 'not configured' },
    });
  });

  it('tells a signed-out client its environment, and no error reporting without a DSN', async () => {
    const config = await t.api().get('/api/client-config');
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      environment: 'production',
      errorReporting: null,
      fileMaxBytes: 25 * 1024 * 1024,
    });
  });

  it('serves /metrics only to the configured bearer token', async () => {
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', { authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(
      401,
    );
    // Without METRICS_TOKEN the endpoint does not exist, whatever is sent.
    const bare = Fastify();
    registerMetrics(bare, createMetrics({ processMetrics: false }), undefined);
    const off = await bare.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(off.statusCode).toBe(404);
    await bare.close();
  });

  it('counts sockets, stored messages, resends and acknowledgements, and HTTP by route pattern', async () => {
    const ws = await makeWorkspace(t);
    const socket = await connect(t, ws.owner.token);
    const ref = { institutionId: ws.id, channelId: ws.general.id };
    const genId = randomUUID();
    const post = () =>
      socket.timeout(5_000).emitWithAck('postMessage', { ...ref, content: '<p>hi</p>', genId } as never);
    const first = (await post()) as Message;
    const again = (await post()) as Message;
    expect(again.id).toBe(first.id);
    await ws.owner.api.get(`/api/institutions/${ws.id}/channels/joined`);

    const res = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/^lantern_connected_sockets 1$/m);
    expect(text).toMatch(/^lantern_messages_stored_total 1$/m);
    expect(text).toMatch(/^lantern_outbox_resends_total\{kind="post"\} 1$/m);
    expect(text).toMatch(/^lantern_ack_latency_seconds_count\{event="postMessage"\} 2$/m);
    expect(text).toContain('route="/api/institutions/:id/channels/joined"');
    // Never a raw address: the workspace's id appears in no label.
    expect(text).not.toContain(ws.id);
  });

  it('puts a request id on every answer and in error bodies, keeping a sane incoming one only', async () => {
    const mine = await get('/api/users/me', { 'x-request-id': 'lb-1234.abcd' });
    expect(mine.status).toBe(401);
    expect(mine.headers.get('x-request-id')).toBe('lb-1234.abcd');
    expect(await mine.json()).toMatchObject({ statusCode: 401, requestId: 'lb-1234.abcd' });

    const hostile = await get('/api/nothing', { 'x-request-id': 'a"b\\c<script>'.padEnd(300, 'x') });
    const id = hostile.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await hostile.json()).toMatchObject({ requestId: id });

    const a = await get('/healthz');
    const b = await get('/healthz');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});
