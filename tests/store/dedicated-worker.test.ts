// The dedicated-worker fallback (no SharedWorker): two tabs' workers under one lock share a store and a
// real server. The tab without the lock is online through the owner's socket and every call it makes
// reaches the owner; when the owner's tab closes the other takes over and sends what was queued.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePage } from '../../schemas/protocol/index.ts';
import { type LanternDatabase, openLanternDatabase } from '../../src/store/database.ts';
import { enqueuePost } from '../../src/store/outbox.ts';
import { type ConnectionStatus, tabLockName, WORKER_METHODS } from '../../worker/api.ts';
import type { WorkerEvent } from '../../worker/events.ts';
import { FallbackHost } from '../../worker/fallback-host.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import { startTestServer, type TestServer } from '../server/harness.ts';
import { eventually, makeWorkspace, type Workspace } from '../server/messaging-world.ts';
import { addPerson, type Person } from '../server/workspace-world.ts';
import { FAST_TIMINGS } from './engine-world.ts';
import { FakeLocks } from './fake-locks.ts';

interface Tab {
  id: string;
  host: FallbackHost;
  /** Connection states this tab heard, in order. */
  statuses: ConnectionStatus[];
  close(): void;
}

let server: TestServer;
let ws: Workspace;
let me: Person;
let db: LanternDatabase;
const locks = new FakeLocks();
const channelName = `lantern-owner:${randomUUID()}`;
const engines: SyncEngine[] = [];

/** A tab: it holds its life lock, and its dedicated worker waits for the network lock. */
function openTab(): Tab {
  const id = randomUUID();
  const closeTab = locks.hold(tabLockName(id));
  const host = new FallbackHost({
    locks,
    lockName: 'lantern-network:test',
    channel: new BroadcastChannel(channelName),
    startEngine: async () => {
      const engine = new SyncEngine({ db, baseUrl: server.url, timings: FAST_TIMINGS, log: () => {} });
      engines.push(engine);
      return engine;
    },
    openStore: async () => db,
  });
  const statuses: ConnectionStatus[] = [];
  // The tab's event port, a real MessageChannel as the browser's client has.
  const events = new MessageChannel();
  events.port1.onmessage = ({ data: event }: MessageEvent<WorkerEvent>) => {
    if (event.name === 'connection') statuses.push(event.payload);
  };
  void host.endpoint.attachTab(id, events.port2);
  return {
    id,
    host,
    statuses,
    close() {
      host.close();
      closeTab();
      events.port1.close();
    },
  };
}

const last = (tab: Tab) => tab.statuses.at(-1);

async function onServer(genId: string): Promise<boolean> {
  const res = await ws.owner.api.get<MessagePage>(
    `/api/institutions/${ws.id}/channels/${ws.general.id}/messages?page=1&limit=50`,
  );
  return res.body.data.some((m) => m.genId === genId);
}

function post(content: string): Promise<string> {
  return enqueuePost(db, {
    institutionId: ws.id,
    channelId: ws.general.id,
    memberId: me.memberId,
    content: `<p>${content}</p>`,
  });
}

beforeAll(async () => {
  server = await startTestServer('pglite');
  ws = await makeWorkspace(server);
  me = await addPerson(server, ws, 'member');
  db = await openLanternDatabase(`dedicated-worker-${randomUUID()}`);
  await db.session.upsert({ id: 'current', token: me.token, user: me.user, selectedInstitutionId: ws.id });
});

afterAll(async () => {
  for (const e of engines) e.close();
  // The store closes only once no engine write is in flight.
  await Promise.all(engines.map((e) => e.settled()));
  await db.close();
  await server.close();
});

describe('the dedicated-worker fallback', () => {
  let first: Tab;
  let second: Tab;

  it('the second tab is online through the first tab’s socket, and its calls reach the first', async () => {
    first = openTab();
    await eventually(() => first.host.isOwner() && last(first) === 'connected', 10_000);
    second = openTab();
    // The owner tells a newcomer its state: no "offline" for as long as the tab stays open.
    await eventually(() => last(second) === 'connected', 2_000);
    expect(second.host.isOwner()).toBe(false);
    expect(engines).toHaveLength(1);

    // A call only the engine can answer: the second tab has no engine, so the first one answered.
    expect(await second.host.endpoint.getConnectionStatus()).toBe('connected');
    expect(await second.host.endpoint.refresh('manual', true)).toBe('ran');

    // The session reaches the owner: signed out there, both tabs hear it; signed in again, both online.
    await second.host.endpoint.sessionChanged(null);
    await eventually(() => last(first) === 'offline' && last(second) === 'offline', 2_000);
    await second.host.endpoint.sessionChanged(me.token);
    await eventually(() => last(first) === 'connected' && last(second) === 'connected', 5_000);

    const genId = await post('from the second tab');
    await second.host.endpoint.drainOutbox();
    await eventually(() => engines.length === 1, 100);
    let delivered = false;
    const until = Date.now() + 5_000;
    while (!delivered && Date.now() < until) delivered = await onServer(genId);
    expect(delivered).toBe(true);
  });

  it('forwards every WorkerApi method (a new method cannot be left out)', () => {
    for (const method of Object.values(WORKER_METHODS))
      expect(typeof second.host.endpoint[method], method).toBe('function');
  });

  it('when the first tab closes the second takes over within a second and sends what was queued', async () => {
    // The owner's socket goes down with a post still queued.
    engines[0]?.disconnect();
    const genId = await post('queued when the owner closed');
    expect((await db.outbox.findOne(genId).exec())?.state).toBe('queued');

    const closedAt = Date.now();
    first.close();
    // A call made while nobody owns the network waits for the next owner and is answered by it.
    const answer = second.host.endpoint.getConnectionStatus();
    await eventually(() => second.host.isOwner(), 1_000);
    expect(Date.now() - closedAt).toBeLessThan(1_000);
    expect(['offline', 'connecting', 'connected']).toContain(await answer);

    await eventually(() => last(second) === 'connected', 5_000);
    let delivered = false;
    const until = Date.now() + 5_000;
    while (!delivered && Date.now() < until) delivered = await onServer(genId);
    expect(delivered).toBe(true);
    await eventually(() => engines.length === 2, 100);
    second.close();
  });
});
