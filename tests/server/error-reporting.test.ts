// Server errors reach Sentry/GlitchTip (a local envelope receiver here) scrubbed: a failing route's event
// arrives with its request id and route, and without the token, cookie, e-mail address, code or body the
// request carried. Development never reports (decision 0040).
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushErrorReports, startErrorReporting } from '../../server/operations/error-reporting.ts';
import { type ErrorReportReceiver, startErrorReportReceiver } from '../support/error-report-receiver.ts';
import { startTestServer, type TestServer } from './harness.ts';

describe('server error reporting', () => {
  let receiver: ErrorReportReceiver;
  let t: TestServer;
  beforeAll(async () => {
    receiver = await startErrorReportReceiver();
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await receiver?.close();
  });

  it('reports a failing route, scrubbed, and never in development', async () => {
    expect(await startErrorReporting({ SENTRY_DSN: receiver.dsn, ENVIRONMENT: 'development' })).toBe(false);
    expect(await startErrorReporting({ SENTRY_DSN: undefined, ENVIRONMENT: 'production' })).toBe(false);
    expect(await startErrorReporting({ SENTRY_DSN: receiver.dsn, ENVIRONMENT: 'production' })).toBe(true);
    t = await startTestServer('pglite');

    // The database goes away under the server: the next request that needs it fails with a 500.
    await (t.ctx.db as unknown as { $client: PGlite }).$client.close();
    const token = 'tok_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';
    const res = await fetch(new URL('/api/auth/signin?access_token=query-secret-1', t.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        cookie: 'sid=cookie-secret-2',
        'x-request-id': 'req-report-1',
      },
      body: JSON.stringify({ email: 'alice.private@example.com', code: '493817' }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ message: 'An error occurred', requestId: 'req-report-1' });
    await flushErrorReports();

    const event = await receiver.waitFor('event');
    const payload = event.payload as {
      exception: { values: { value: string }[] };
      tags: Record<string, string>;
      request: { url: string; headers: Record<string, string> };
    };
    expect(payload.tags).toMatchObject({ request_id: 'req-report-1', route: '/api/auth/signin' });
    expect(payload.request.url).toBe('/api/auth/signin');
    expect(payload.request.headers['x-request-id']).toBe('req-report-1');
    expect(payload.exception.values.length).toBeGreaterThan(0);
    for (const secret of [token, 'query-secret-1', 'cookie-secret-2', 'alice.private@example.com', '493817'])
      expect(event.raw).not.toContain(secret);
  }, 120_000);
});
