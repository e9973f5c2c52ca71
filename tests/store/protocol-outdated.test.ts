// A build the server no longer answers, as the client meets it: the REST client names its protocol on every
// call, hears 426 as "reload" (not as a lost session), and the sync engine stops retrying a refused socket
// and reports 'outdated', which every tab turns into the reload banner.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_OUTDATED_MESSAGE, PROTOCOL_VERSION } from '../../schemas/protocol/index.ts';
import { openLanternDatabase } from '../../src/store/database.ts';
import { ApiError, createHttp } from '../../src/store/http.ts';
import type { ConnectionStatus } from '../../worker/events.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import { startTestServer, type TestServer, type TestUser } from '../server/harness.ts';
import { eventually } from '../server/messaging-world.ts';
import { FAST_TIMINGS } from './engine-world.ts';

describe('a client older than the server accepts', () => {
  let server: TestServer;
  let person: TestUser;
  beforeAll(async () => {
    // The server has moved on past this build: the situation of a tab left open across a deploy.
    server = await startTestServer('pglite', { env: { PROTOCOL_MIN_VERSION: String(PROTOCOL_VERSION + 1) } });
    person = await server.signUp();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('gets a 426 on REST that asks for a reload and does not sign the person out', async () => {
    let outdated = 0;
    let signedOut = 0;
    const http = createHttp({
      baseUrl: server.url,
      getToken: () => person.token,
      onSessionInvalid: () => (signedOut += 1),
      onOutdated: () => (outdated += 1),
    });
    const error = await http.get('/api/users').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 426, message: PROTOCOL_OUTDATED_MESSAGE });
    expect({ outdated, signedOut }).toEqual({ outdated: 1, signedOut: 0 });
    // The same call without the client's header (a tool) is served: the refusal came from the version sent.
    expect((await person.api.get('/api/users')).status).toBe(200);
  });

  it("reports the worker's connection as outdated and stops reconnecting", async () => {
    const db = await openLanternDatabase(`protocol-outdated-${randomUUID()}`);
    const engine = new SyncEngine({
      db,
      baseUrl: server.url,
      timings: FAST_TIMINGS,
      getToken: async () => person.token,
      log: () => {},
    });
    const seen: ConnectionStatus[] = [];
    engine.listen('connection', (s) => seen.push(s));
    try {
      await engine.sessionChanged(person.token);
      await eventually(() => seen.at(-1) === 'outdated', 10_000);
      // Several reconnection delays later it has not tried again (a retry would report 'connecting').
      await new Promise((r) => setTimeout(r, FAST_TIMINGS.reconnectionDelayMaxMs * 5));
      expect(seen.at(-1)).toBe('outdated');
      expect(seen.filter((s) => s === 'connecting')).toHaveLength(1);
    } finally {
      engine.close();
      await engine.settled();
      await db.close();
    }
  });
});
