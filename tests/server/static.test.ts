// The built client is served with an SPA fallback and the right caching; `npm run serve` (server/main.ts)
// stops cleanly on SIGTERM and starts again on the same data.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigninResponse } from '../../schemas/protocol/index.ts';
import { createApp, type LanternServer } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { makeApi, uniqueEmail } from './harness.ts';

describe('static client', () => {
  let server: LanternServer;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-static-'));
    const clientDir = path.join(dataDir, 'dist');
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Lantern</title>');
    writeFileSync(path.join(clientDir, 'signin.html'), '<!doctype html><title>Sign in - Lantern</title>');
    writeFileSync(path.join(clientDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
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

  it('serves index.html at / and for deep links, never cached', async () => {
    for (const p of ['/', '/w/123/c/456', '/signin/more', '/signinx']) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Lantern</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves a page load of /signin the standalone sign-in page, never cached', async () => {
    for (const p of ['/signin', '/signin?redirect=%2Fdrafts']) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<title>Sign in - Lantern</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves the service worker uncached and hashed assets for a year', async () => {
    const sw = await get('/sw.js', '*/*');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const asset = await get('/assets/app-abc123.js', '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('never answers API, socket.io or missing-file paths with the app', async () => {
    const api = await get('/api/nothing-here');
    expect(api.status).toBe(401);
    const file = await get('/assets/missing.js', '*/*');
    expect(file.status).toBe(404);
    expect(await file.json()).toMatchObject({ statusCode: 404 });
    const socket = await get('/socket.io/nope');
    expect(await socket.text()).not.toContain('<title>Lantern</title>');
  });
});

describe('the server process', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-main-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts `tsx server/main.ts` and resolves with its URL once it prints it. */
  function startProcess(port: number) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        SMTP_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const ready = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Lantern is running at (\S+)"/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, ready, exited, output: () => output };
  }

  it('prints where sign-in codes go, stops on SIGTERM, and keeps its data across a restart', async () => {
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    const first = startProcess(port);
    const url = await first.ready;
    expect(first.output()).toContain(path.join(dataDir, 'mail'));
    // Secrets are generated on first start, readable by the server's user only.
    expect(statSync(path.join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);

    const email = uniqueEmail();
    const anon = makeApi(url);
    await anon.get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
    // The log line reaches us through a pipe, possibly a moment after the HTTP answer.
    let code: string | undefined;
    for (let i = 0; i < 100 && !code; i++) {
      code = /Sign-in code for \S+: (\d{6})/.exec(first.output())?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 50));
    }
    expect(code).toMatch(/^\d{6}$/);
    const signedIn = await anon.post<SigninResponse>('/api/auth/signin', { email, code });
    expect(signedIn.status).toBe(200);
    await makeApi(url, signedIn.body.accessToken).post('/api/institutions', { name: 'Survives' });

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startProcess(port);
    await second.ready;
    const list = await makeApi(url, signedIn.body.accessToken).get<{ data: { name: string }[] }>(
      '/api/institutions',
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((i) => i.name)).toEqual(['Survives']);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});
