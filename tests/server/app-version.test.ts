// What an open tab learns about deploys (decision 0043): GET /api/version names the served build and the
// route rules without a session, the socket says the build on every connection, and a build id or route
// rule the operator mistyped stops the server at start-up instead of reaching browsers.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../schemas/protocol/index.ts';
import { loadConfig } from '../../server/config.ts';
import { servedBuildId } from '../../server/http/app-version.ts';
import { startTestServer, type TestServer } from './harness.ts';

const RULES = { '/join': { redirect: 'https://example.com/join' }, '/client/profile': { redirect: '/' } };

describe('the served build', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite', {
      env: { BUILD_ID: 'abc1234-mf0k2x9q', ROUTE_RULES: JSON.stringify(RULES) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells a signed-out tab the build and the route rules, uncached', async () => {
    const res = await fetch(new URL('/api/version', t.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.json()).toEqual({ buildId: 'abc1234-mf0k2x9q', routeRules: RULES });
  });

  it('says the build to every socket as it connects', async () => {
    const owner = await t.signUp();
    const socket = io(t.url, {
      transports: ['websocket'],
      auth: { token: owner.token, protocol: PROTOCOL_VERSION },
      forceNew: true,
      reconnection: false,
    });
    try {
      const heard = await new Promise<unknown>((resolve, reject) => {
        socket.on('serverBuild', resolve);
        socket.on('connect_error', reject);
      });
      expect(heard).toEqual({ buildId: 'abc1234-mf0k2x9q' });
    } finally {
      socket.disconnect();
    }
  });
});

describe('where the build id comes from', () => {
  const base = { PORT: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lantern-version-')) };

  it('reads version.json of the built client, and is null without one', () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'lantern-client-'));
    expect(servedBuildId(loadConfig({ ...base, CLIENT_DIR: clientDir }))).toBeNull();
    const built = path.join(clientDir, 'built');
    mkdirSync(built);
    writeFileSync(path.join(built, 'version.json'), JSON.stringify({ buildId: 'def5678-mf0k3a00' }));
    expect(servedBuildId(loadConfig({ ...base, CLIENT_DIR: built }))).toBe('def5678-mf0k3a00');
    // BUILD_ID wins over the file (an operator pinning what tabs are told).
    expect(servedBuildId(loadConfig({ ...base, CLIENT_DIR: built, BUILD_ID: 'pinned' }))).toBe('pinned');
  });

  it('refuses route rules that are not JSON, or that send a path somewhere that is not a page', () => {
    expect(() => loadConfig({ ...base, ROUTE_RULES: '{"/join":' })).toThrow(/ROUTE_RULES/);
    expect(() =>
      loadConfig({ ...base, ROUTE_RULES: JSON.stringify({ '/join': { redirect: 'javascript:alert(1)' } }) }),
    ).toThrow(/ROUTE_RULES/);
    expect(() =>
      loadConfig({ ...base, ROUTE_RULES: JSON.stringify({ '/join': { redirect: '//evil.example' } }) }),
    ).toThrow(/ROUTE_RULES/);
    expect(() => loadConfig({ ...base, BUILD_ID: 'x'.repeat(201) })).toThrow(/BUILD_ID/);
  });
});
