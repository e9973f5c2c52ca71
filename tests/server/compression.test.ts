// Answers cross slow connections compressed: the built client as the .br/.gz copies written at build
// time, JSON compressed per request, and nothing compressed for a client that did not ask for it.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Institution } from '../../schemas/protocol/index.ts';
import { precompressFiles } from '../../scripts/precompress.ts';
import { startTestServer, type TestServer } from './harness.ts';

/** A raw request through node:http: fetch would decompress and hide what crossed the wire. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Headers; bytes: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') answer.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: answer, bytes: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

describe('compressed answers', () => {
  let t: TestServer;
  let clientDir: string;
  const script = `${'export const greeting = "hello from a hashed asset";\n'.repeat(200)}`;

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'lantern-compress-'));
    mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Lantern</title>');
    writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), script);
    precompressFiles(clientDir);
    t = await startTestServer('pglite', { env: { CLIENT_DIR: clientDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('sends the build-time brotli or gzip copy of an asset to a browser that accepts it', async () => {
    const url = `${t.url}/assets/app-abc123.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.bytes.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(br.bytes).toString()).toBe(script);
    // The very bytes written at build time: nothing was compressed for this request.
    expect(br.bytes.equals(readFileSync(path.join(clientDir, 'assets', 'app-abc123.js.br')))).toBe(true);
    // The hashed asset keeps its year-long caching when it is sent compressed.
    expect(br.headers.get('cache-control')).toContain('immutable');

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString()).toBe(script);
    expect(gz.bytes.equals(readFileSync(path.join(clientDir, 'assets', 'app-abc123.js.gz')))).toBe(true);

    const plain = await rawGet(url, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.toString()).toBe(script);
  });

  it('compresses a JSON list per request, and only for a client that accepts it', async () => {
    const owner = await t.signUp();
    const created = await owner.api.post<{ institution: Institution }>('/api/institutions', { name: 'Team' });
    const channels = `/api/institutions/${created.body.institution.id}/channels`;
    for (let i = 0; i < 12; i++) {
      const res = await owner.api.post(channels, { name: `project-${i}`, type: 'public' });
      expect(res.status).toBe(201);
    }
    const auth = { authorization: `Bearer ${owner.token}` };
    const plain = await rawGet(`${t.url}${channels}`, { ...auth, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.length).toBeGreaterThan(1024);

    const br = await rawGet(`${t.url}${channels}`, { ...auth, 'accept-encoding': 'br, gzip' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString())).toEqual(JSON.parse(plain.bytes.toString()));
  });
});
