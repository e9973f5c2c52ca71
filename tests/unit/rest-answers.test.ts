// The REST client parses every answer with its route's schema (schemas/protocol/routes.ts): a real
// server's answers come back typed and complete; an answer of another shape (a server older or newer
// than the app) fails with a sentence the person can act on instead of reaching the store half-formed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp, UnexpectedAnswerError } from '../../src/store/http.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';
import { makeWorkspace, type Workspace } from '../server/messaging-world.ts';

let server: TestServer;
let ws: Workspace;
let odd: Server;
let oddUrl: string;

beforeAll(async () => {
  server = await startTestServer('pglite');
  ws = await makeWorkspace(server);
  // A server that answers every call with a shape no route declares.
  odd = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ channelz: [] }));
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => odd?.close(resolve));
});

describe('answers parsed by their route', () => {
  it("returns the server's answer for a named route, its path filled from the params", async () => {
    const http = createHttp({ baseUrl: server.url, getToken: () => ws.owner.token });
    const joined = await http.call('joinedChannels', { params: { id: ws.id } });
    expect(joined.channels.map((c) => c.id)).toContain(ws.general.id);
    const page = await http.call('messages', {
      params: { id: ws.id, channelId: ws.general.id },
      query: { page: '1', limit: '5' },
    });
    expect(page.metadata.hasMore).toBe(false);
  });

  it('rejects an answer of another shape with a sentence that says to reload', async () => {
    const http = createHttp({ baseUrl: oddUrl, getToken: () => 'token' });
    const error = await http.call('joinedChannels', { params: { id: ws.id } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toBe(
      'The server sent an answer this version of Lantern cannot read. Reload to update.',
    );
  });
});
