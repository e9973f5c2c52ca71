// A session ended elsewhere signs the tab out even when only its worker hears of it (spec §8: a refused
// session logs the person out and sends them to sign-in). The worker's own work meets the refusal first
// when the person is only reading: the socket's handshake after the server closed it, or a refresh. Its
// tab then signs out as it does when one of its own requests is refused; a tab whose session is another
// one by then stays signed in.
import { randomUUID } from 'node:crypto';
import type { Remote } from 'comlink';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema.ts';
import { requireClient, type StoreClient, startClient } from '../../src/data/client.ts';
import type { WorkerEndpoint } from '../../worker/api.ts';
import { lazyEndpoint } from '../../worker/engine-host.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';
import { makeWorkspace, pause, type Workspace } from '../server/messaging-world.ts';
import { addPerson, type Person } from '../server/workspace-world.ts';
import { FAST_TIMINGS } from './engine-world.ts';

let server: TestServer;
let ws: Workspace;
let client: StoreClient;
let engine: SyncEngine;
let status = 'offline';
/** The token the worker works with: the tab tells it on signing in (signedInAs), as a real tab does. */
let engineToken: string | null = null;

const storedToken = async () => (await client.db.session.findOne('current').exec())?.token ?? null;

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await pause(20);
  }
}

/** The tab signs in as `person` and its worker connects with that session. */
async function signedInAs(person: Person): Promise<void> {
  await client.db.session.upsert({
    id: 'current',
    token: person.token,
    user: person.user,
    selectedInstitutionId: ws.id,
  });
  engineToken = person.token;
  await engine.sessionChanged(person.token);
  await until(async () => status === 'connected');
}

/** Ends the person's sessions in the database only: no socket is closed, as when an expiry is found. */
async function revokeQuietly(person: Person): Promise<void> {
  await server.ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(eq(sessions.userId, person.user.id));
}

beforeAll(async () => {
  server = await startTestServer('pglite');
  ws = await makeWorkspace(server);
  let resolveEngine: (e: SyncEngine) => void = () => {};
  const enginePromise = new Promise<SyncEngine>((r) => {
    resolveEngine = r;
  });
  await startClient({
    baseUrl: server.url,
    databaseName: `session-refused-${randomUUID()}`,
    worker: lazyEndpoint(enginePromise, null) as unknown as Remote<WorkerEndpoint>,
  });
  client = await requireClient();
  engine = new SyncEngine({
    db: client.db,
    baseUrl: server.url,
    timings: FAST_TIMINGS,
    getToken: async () => engineToken,
    log: () => {},
  });
  engine.listen('connection', (s) => {
    status = s;
  });
  resolveEngine(engine);
}, 60_000);

afterAll(async () => {
  engine?.close();
  await client?.db.close();
  await server?.close();
});

it('signs out when the socket is refused after the session was ended from another device', async () => {
  const person = await addPerson(server, ws);
  await signedInAs(person);
  // The same person on another device signs every other session out; the server closes this one's socket.
  const elsewhere = await server.signUp(person.user.email);
  const res = await server.api(elsewhere.token).post('/api/users/sessions/revoke-others');
  expect(res.status).toBe(200);
  await until(async () => (await storedToken()) === null);
});

it('signs out when a refresh of the worker is refused, the socket still open', async () => {
  const person = await addPerson(server, ws);
  await signedInAs(person);
  // Revoked without closing the socket (as an expiry would be found): only the worker's next request learns.
  await revokeQuietly(person);
  await expect(engine.refreshWorkspaces()).rejects.toThrow();
  await until(async () => (await storedToken()) === null);
});

it('keeps a session that replaced the refused one', async () => {
  const first = await addPerson(server, ws);
  await signedInAs(first);
  await revokeQuietly(first);
  // The tab has signed in as someone else; its worker has not been told yet and refreshes with the old one.
  const second = await addPerson(server, ws);
  await client.db.session.upsert({
    id: 'current',
    token: second.token,
    user: second.user,
    selectedInstitutionId: ws.id,
  });
  await expect(engine.refreshWorkspaces()).rejects.toThrow();
  await pause(300);
  expect(await storedToken()).toBe(second.token);
});
