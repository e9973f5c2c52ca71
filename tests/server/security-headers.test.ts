// Every answer carries the security headers (decision 0016): the app page, a static asset, the API
// signed in and signed out, and a 404. HSTS only when PUBLIC_URL is https; extra origins from config.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type LanternServer } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';

/** A directive of a Content-Security-Policy header, as its list of sources. */
function directive(policy: string | null, name: string): string[] | undefined {
  const entry = (policy ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([key]) => key === name);
  return entry?.slice(1);
}

function expectSecurityHeaders(headers: Headers) {
  const policy = headers.get('content-security-policy');
  expect(directive(policy, 'script-src')).toEqual(["'self'"]);
  expect(directive(policy, 'object-src')).toEqual(["'none'"]);
  expect(directive(policy, 'base-uri')).toEqual(["'self'"]);
  expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
  expect(directive(policy, 'connect-src')).toContain("'self'");
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  expect(headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers on the app, static files and the API', () => {
  let server: LanternServer;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-headers-'));
    const clientDir = path.join(dataDir, 'dist');
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Lantern</title>');
    writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log(1);');
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      CLIENT_DIR: clientDir,
    });
    config.dbDir = 'memory://';
    server = await createApp(config);
    ({ url } = await server.listen());
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = (p: string, accept = 'text/html') => fetch(new URL(p, url), { headers: { accept } });

  it('sends them with the app page, a deep link and a hashed asset', async () => {
    for (const [p, accept] of [
      ['/', 'text/html'],
      ['/w/1/c/2', 'text/html'],
      ['/assets/app-abc123.js', '*/*'],
    ] as const) {
      const res = await get(p, accept);
      expect(res.status).toBe(200);
      expectSecurityHeaders(res.headers);
    }
  });

  it('sends them with API answers, a 401 and a 404 included', async () => {
    const unauthorized = await get('/api/institutions', 'application/json');
    expect(unauthorized.status).toBe(401);
    expectSecurityHeaders(unauthorized.headers);
    const missing = await get('/favicon-missing.ico', '*/*');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
  });

  it('sends no HSTS on plain http, where it would lock a local install out', async () => {
    const res = await get('/');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe.each(databases)('security headers from configuration (%s)', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: {
        PUBLIC_URL: 'https://chat.example.com',
        CSP_CONNECT_SRC: 'https://push.example.com, https://id.example.com',
        FRAME_ANCESTORS: "'self',https://intranet.example.com",
        S3_ENDPOINT: 'https://s3.example.com/base',
        S3_BUCKET: 'lantern',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends HSTS, the extra connect origins, the S3 origin and the allowed framers', async () => {
    const me = await t.signUp();
    const res = await me.api.get('/api/institutions');
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
    const policy = res.headers.get('content-security-policy');
    expect(directive(policy, 'connect-src')).toEqual([
      "'self'",
      'blob:',
      'https://s3.example.com',
      'https://push.example.com',
      'https://id.example.com',
    ]);
    expect(directive(policy, 'img-src')).toContain('https://s3.example.com');
    expect(directive(policy, 'frame-ancestors')).toEqual(["'self'", 'https://intranet.example.com']);
    // frame-ancestors allows framing here, so the legacy header that would forbid it is not sent.
    expect(res.headers.get('x-frame-options')).toBeNull();
  });
});

describe('security header settings', () => {
  it('refuses an origin list that could rewrite the policy, naming the variable', () => {
    for (const bad of ['https://a.example; script-src *', 'https://a.example/path', "'unsafe-inline'", '*']) {
      expect(() => loadConfig({ CSP_CONNECT_SRC: bad })).toThrow(/CSP_CONNECT_SRC/);
      expect(() => loadConfig({ FRAME_ANCESTORS: bad })).toThrow(/FRAME_ANCESTORS/);
    }
  });

  it("defaults to no extra origins and frame-ancestors 'none'", () => {
    const config = loadConfig({});
    expect(config.CSP_CONNECT_SRC).toEqual([]);
    expect(config.FRAME_ANCESTORS).toEqual(["'none'"]);
  });
});
