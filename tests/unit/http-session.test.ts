// The REST client against a real server: a call the person's role forbids fails with the server's
// message and keeps them signed in; a lost session signs them out (decision 0005).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createHttp } from '../../src/store/http.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';
import { makeWorkspace, type Workspace } from '../server/messaging-world.ts';
import { addPerson, type Person } from '../server/workspace-world.ts';

let server: TestServer;
let ws: Workspace;
let member: Person;

beforeAll(async () => {
  server = await startTestServer('pglite');
  ws = await makeWorkspace(server);
  member = await addPerson(server, ws, 'member');
}, 60_000);

afterAll(async () => {
  await server?.close();
});

function clientFor(token: string) {
  let signedOut = 0;
  const http = createHttp({
    baseUrl: server.url,
    getToken: () => token,
    onSessionInvalid: () => (signedOut += 1),
  });
  return { http, signedOut: () => signedOut };
}

describe('REST errors and the session', () => {
  it('keeps a member signed in when their role forbids a call, and rejects with the server message', async () => {
    const { http, signedOut } = clientFor(member.token);
    const error = await http
      .post(`/api/institutions/${ws.id}/groups`, { name: 'Admins only' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).message).not.toBe('An error occurred');
    expect(signedOut()).toBe(0);
  });

  it('signs out when the token is no longer valid', async () => {
    const { http, signedOut } = clientFor('not-a-real-token');
    await expect(http.get('/api/institutions')).rejects.toMatchObject({ status: 401 });
    expect(signedOut()).toBe(1);
  });
});
