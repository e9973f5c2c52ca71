// The client sends the session token only to its own origin (issue 9 item 3): addresses a stranger put in
// a message ('//evil.example/cat.png' and friends) start with '/' but name another host, and must be
// recognised as foreign by parsing, so neither a preview nor the REST client ever attaches the token.
import { describe, expect, it } from 'vitest';
import { createHttp } from '../../src/store/http.ts';
import { mayCarryToken, sameOriginUrl } from '../../src/store/own-origin.ts';

const APP = 'https://lantern.example';

describe('which addresses are our own', () => {
  it.each([
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['/\\evil.example/cat.png'],
    ['https://evil.example'],
    ['https://evil.example/api/files/1/content'],
    ['https://lantern.example.evil.example/api'],
    ['http://lantern.example/api/files/1/content'],
    ['javascript:alert(1)'],
    ['data:text/plain,hi'],
  ])('%s is foreign', (url) => {
    expect(sameOriginUrl(url, APP)).toBeNull();
    expect(mayCarryToken(url, APP)).toBe(false);
  });

  it.each([
    ['/api/files/abc/content', '/api/files/abc/content'],
    ['https://lantern.example/api/files/abc/content', '/api/files/abc/content'],
    ['api/files/abc/content?x=1', '/api/files/abc/content'],
  ])('%s is ours', (url, path) => {
    expect(sameOriginUrl(url, APP)?.pathname).toBe(path);
    expect(mayCarryToken(url, APP)).toBe(true);
  });
});

describe('the REST client', () => {
  function recorder() {
    const calls: { url: string; authorization: string | undefined }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      calls.push({ url: String(input), authorization: headers.authorization });
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    return { calls, fetch };
  }

  it('never attaches the token to a path that resolves to another host', async () => {
    const { calls, fetch } = recorder();
    const http = createHttp({ baseUrl: '', getToken: () => 'secret-token', fetch });
    await http.getBlob('//evil.example/cat.png');
    await http.getBlob('/\\evil.example/cat.png');
    await http.get('//evil.example/x');
    expect(calls.map((c) => c.authorization)).toEqual([undefined, undefined, undefined]);
  });

  it('attaches the token to its own API', async () => {
    const { calls, fetch } = recorder();
    const http = createHttp({ baseUrl: APP, getToken: () => 'secret-token', fetch });
    await http.getBlob('/api/files/abc/content');
    await http.get('/api/users/me');
    expect(calls.map((c) => c.authorization)).toEqual(['Bearer secret-token', 'Bearer secret-token']);
  });
});
