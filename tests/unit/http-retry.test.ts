// The REST client's retries (spec §9) against a real local HTTP server that answers from a script: reads
// are tried once more on the listed statuses, writes only when idempotent by their key, Retry-After is
// waited for, and a wait too long to sit through is not taken.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp } from '../../src/store/http.ts';
import { retryDelayMs } from '../../src/store/http-retry.ts';

interface Scripted {
  status: number;
  headers?: Record<string, string>;
}

let server: Server;
let baseUrl: string;
/** Answers still to give, per path; then 200 {"ok":true}. */
const script = new Map<string, Scripted[]>();
const arrivals = new Map<string, number[]>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    arrivals.set(path, [...(arrivals.get(path) ?? []), Date.now()]);
    const next = script.get(path)?.shift();
    req.resume();
    req.on('end', () => {
      const status = next?.status ?? 200;
      res.writeHead(status, { 'content-type': 'application/json', ...next?.headers });
      res.end(
        JSON.stringify(status === 200 ? { ok: true } : { statusCode: status, message: `refused ${status}` }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const http = () => createHttp({ baseUrl, getToken: () => null });
const zero = { 'retry-after': '0' };

describe('REST retries', () => {
  it('tries a read once more on a retryable status, and no more', async () => {
    script.set('/a', [{ status: 503, headers: zero }]);
    await expect(http().get('/a')).resolves.toEqual({ ok: true });
    expect(arrivals.get('/a')).toHaveLength(2);

    script.set('/b', [
      { status: 429, headers: zero },
      { status: 502, headers: zero },
    ]);
    await expect(http().get('/b')).rejects.toMatchObject({ status: 502, message: 'refused 502' });
    expect(arrivals.get('/b')).toHaveLength(2);
  });

  it('never retries another status, nor a write unless it is idempotent by its key', async () => {
    script.set('/c', [{ status: 404 }]);
    await expect(http().get('/c')).rejects.toMatchObject({ status: 404 });
    expect(arrivals.get('/c')).toHaveLength(1);

    script.set('/d', [{ status: 503, headers: zero }]);
    await expect(http().post('/d', { name: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(arrivals.get('/d')).toHaveLength(1);

    script.set('/api/users/sessions/ping', [{ status: 503, headers: zero }]);
    await expect(http().call('pingSession', { idempotent: true })).resolves.toEqual({ ok: true });
    expect(arrivals.get('/api/users/sessions/ping')).toHaveLength(2);
  });

  it('waits for Retry-After before trying again, and fails at once when it is too long', async () => {
    script.set('/e', [{ status: 503, headers: { 'retry-after': '1' } }]);
    await expect(http().get('/e')).resolves.toEqual({ ok: true });
    const [first = 0, second = 0] = arrivals.get('/e') ?? [];
    expect(second - first).toBeGreaterThanOrEqual(950);

    script.set('/f', [{ status: 429, headers: { 'retry-after': '3600' } }]);
    await expect(http().get('/f')).rejects.toMatchObject({ status: 429 });
    expect(arrivals.get('/f')).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-25T03:00:00Z');
    expect(retryDelayMs(503, '2', now)).toBe(2_000);
    expect(retryDelayMs(503, 'Wed, 25 Nov 2026 03:00:05 GMT', now)).toBe(5_000);
    expect(retryDelayMs(503, null, now)).toBe(1_000);
    expect(retryDelayMs(400, '0', now)).toBeNull();
  });
});
