// One person's client (tab actions + sync engine in this process) against a real server, for tests of
// what works offline: go offline and online at will, wait until the outbox has drained.
import { randomUUID } from 'node:crypto';
import type { Remote } from 'comlink';
import { expect } from 'vitest';
import type { MessageDoc } from '../../schemas/collections.ts';
import type { Message, MessagePage } from '../../schemas/protocol/index.ts';
import { refreshJoinedChannels } from '../../src/data/channels.ts';
import { requireClient, type StoreClient, startClient } from '../../src/data/client.ts';
import { refreshInstitutions } from '../../src/data/workspaces.ts';
import type { WorkerEndpoint } from '../../worker/api.ts';
import { lazyEndpoint } from '../../worker/engine-host.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';
import { disconnectAll, eventually, makeWorkspace, type Workspace } from '../server/messaging-world.ts';
import { addPerson, type Person } from '../server/workspace-world.ts';

export const FAST_TIMINGS = {
  ackTimeoutMs: 2_000,
  resyncIntervalMs: 300,
  reconnectionDelayMs: 20,
  reconnectionDelayMaxMs: 120,
  connectTimeoutMs: 3_000,
};

export interface EngineWorld {
  server: TestServer;
  ws: Workspace;
  /** A plain member of the workspace, in #general: the person using the client. */
  me: Person;
  client: StoreClient;
  engine: SyncEngine;
  /** Every request the engine made, as "METHOD path". */
  engineRequests: string[];
  goOnline(): Promise<void>;
  goOffline(): void;
  /** Until the outbox is empty and the engine quiet, then past a resync interval (a resend would show). */
  drained(): Promise<void>;
  stored(genId: string): Promise<MessageDoc>;
  /** The message as the server keeps it in #general. */
  onServer(genId: string): Promise<Message | undefined>;
  close(): Promise<void>;
}

export async function startEngineWorld(): Promise<EngineWorld> {
  const server = await startTestServer('pglite');
  const ws = await makeWorkspace(server);
  const me = await addPerson(server, ws, 'member');
  const engineRequests: string[] = [];
  let resolveEngine: (e: SyncEngine) => void = () => {};
  const enginePromise = new Promise<SyncEngine>((r) => {
    resolveEngine = r;
  });
  await startClient({
    baseUrl: server.url,
    databaseName: `engine-world-${randomUUID()}`,
    worker: lazyEndpoint(enginePromise, null) as unknown as Remote<WorkerEndpoint>,
  });
  const client = await requireClient();
  await client.db.session.upsert({
    id: 'current',
    token: me.token,
    user: me.user,
    selectedInstitutionId: ws.id,
  });
  const engine = new SyncEngine({
    db: client.db,
    baseUrl: server.url,
    timings: FAST_TIMINGS,
    getToken: async () => me.token,
    fetch: (input, init) => {
      engineRequests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
    log: () => {},
  });
  resolveEngine(engine);
  let status = 'offline';
  engine.listen('connection', (s) => {
    status = s;
  });
  await refreshInstitutions();
  await refreshJoinedChannels(ws.id);
  return {
    server,
    ws,
    me,
    client,
    engine,
    engineRequests,
    async goOnline() {
      await engine.sessionChanged(me.token);
      await eventually(() => status === 'connected', 10_000);
    },
    goOffline() {
      engine.disconnect();
      status = 'offline';
    },
    async drained() {
      const until = Date.now() + 15_000;
      while ((await client.db.outbox.count().exec()) > 0 && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      await engine.settled();
      await new Promise((r) => setTimeout(r, FAST_TIMINGS.resyncIntervalMs * 2));
      expect(await client.db.outbox.count().exec()).toBe(0);
    },
    async stored(genId) {
      return (await client.db.messages.findOne(genId).exec())?.toJSON() as MessageDoc;
    },
    async onServer(genId) {
      const res = await ws.owner.api.get<MessagePage>(
        `/api/institutions/${ws.id}/channels/${ws.general.id}/messages?page=1&limit=50`,
      );
      return res.body.data.find((m) => m.genId === genId);
    },
    async close() {
      disconnectAll();
      engine.close();
      // The store closes only once no engine write is in flight (a close during one never resolves).
      await engine.settled();
      await client.db.close();
      await server.close();
    },
  };
}
