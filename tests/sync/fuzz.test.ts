// Sync fuzz: several clients' real sync engines (each with its own store and the real socket.io-client)
// send messages to a real server through a fault-injecting TCP proxy that cuts connections at random
// points, while the server is sometimes restarted on the same data. Every seed asserts: each message
// sent is stored exactly once, every client converges to the server's history, each sender's order holds.
// FUZZ_SEEDS=n runs more seeds; FUZZ_SEED=n replays one; failing seeds are pinned in REGRESSION_SEEDS.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_COLLECTIONS } from '../../schemas/collections.ts';
import type { Channel, ChannelMember, InstitutionWithMember } from '../../schemas/protocol.ts';
import { messages as messagesTable } from '../../server/db/schema.ts';
import { type LanternDatabase, openLanternDatabase } from '../../src/store/database.ts';
import { enqueuePost } from '../../src/store/outbox.ts';
import { SyncEngine } from '../../worker/sync-engine.ts';
import { startTestServer, type TestServer, type TestUser } from '../server/harness.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { prng } from './prng.ts';

const SEED_COUNT = Number(process.env.FUZZ_SEEDS ?? 200);
const ONLY_SEED = process.env.FUZZ_SEED === undefined ? null : Number(process.env.FUZZ_SEED);
/** Seeds that once failed, kept as named regression tests. */
const REGRESSION_SEEDS: { name: string; seed: number }[] = [
  // Under CI load, a confirmation that landed while a timed-out send was being recorded was overwritten
  // back to pending, with no outbox row left to confirm it again (fixed in src/store/outbox.ts).
  { name: 'a confirmation racing a timed-out send stays confirmed', seed: 5 },
  { name: 'a confirmation racing a timed-out send stays confirmed (second seed)', seed: 16 },
];

const CLIENTS = 3;
/** Shrunk so a seed takes well under a second; the production values are in worker/timings.ts. */
const FAST_TIMINGS = {
  ackTimeoutMs: 1_500,
  resyncIntervalMs: 400,
  reconnectionDelayMs: 20,
  reconnectionDelayMaxMs: 120,
  connectTimeoutMs: 2_000,
};

let server: TestServer;
let proxy: FaultProxy;
let users: TestUser[] = [];
let institutionId = '';

beforeAll(async () => {
  server = await startTestServer('pglite', { onDisk: true });
  proxy = await startFaultProxy(server.port);
  users = [];
  for (let i = 0; i < CLIENTS; i++) users.push(await server.signUp());
  const owner = users[0]!;
  const created = await owner.api.post<{ institution: InstitutionWithMember }>('/api/institutions', {
    name: 'fuzz',
  });
  institutionId = created.body.institution.id;
  const others = users.slice(1);
  await owner.api.post(`/api/institutions/${institutionId}/invited-members`, {
    emails: others.map((u) => u.user.email),
  });
  for (const u of others) {
    const accepted = await u.api.post(`/api/institutions/${institutionId}/members`);
    expect(accepted.status).toBeLessThan(300);
  }
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

interface Client {
  db: LanternDatabase;
  engine: SyncEngine;
}

async function runSeed(seed: number): Promise<void> {
  const rng = prng(seed);
  const owner = users[0]!;
  const made = await owner.api.post<{ channel: Channel; channelMember: ChannelMember }>(
    `/api/institutions/${institutionId}/channels`,
    { name: `fuzz-${seed}-${randomUUID().slice(0, 8)}`, type: 'public' },
  );
  expect(made.status).toBeLessThan(300);
  const channelId = made.body.channel.id;
  for (const u of users.slice(1)) {
    const joined = await u.api.post(`/api/institutions/${institutionId}/channels/${channelId}/members`);
    expect(joined.status).toBeLessThan(300);
  }

  const clients: Client[] = [];
  for (const [i, u] of users.entries()) {
    const db = await openLanternDatabase(`fuzz-${seed}-${i}-${randomUUID()}`, {
      collections: SYNC_COLLECTIONS,
    });
    await db.syncState.insert({ channelId, institutionId, checkpoint: 0 });
    const engine = new SyncEngine({
      db,
      baseUrl: proxy.url,
      getToken: async () => u.token,
      timings: FAST_TIMINGS,
      log: process.env.FUZZ_DEBUG ? (m, e) => console.error(`[client ${i}] ${m}`, e ?? '') : () => {},
    });
    clients.push({ db, engine });
  }

  const sent: { genId: string; sender: number }[] = [];
  try {
    // Faults: about half the connections are cut after a random number of bytes.
    proxy.setBudget(() => (rng.chance(0.5) ? rng.int(40, 6_000) : null));
    for (const c of clients) await c.engine.sessionChanged();

    const steps = rng.int(4, 10);
    for (let step = 0; step < steps; step++) {
      const roll = rng.next();
      if (roll < 0.6) {
        const sender = rng.int(0, CLIENTS - 1);
        const c = clients[sender]!;
        const genId = await enqueuePost(c.db, {
          institutionId,
          channelId,
          memberId: users[sender]!.user.id,
          content: `<p>s${seed} c${sender} #${sent.filter((s) => s.sender === sender).length}</p>`,
        });
        sent.push({ genId, sender });
        void c.engine.drainOutbox();
      } else if (roll < 0.8) {
        proxy.cutAll();
      } else if (roll < 0.9) {
        proxy.pause();
        await sleep(rng.int(5, 60));
        proxy.resume();
      } else if (roll < 0.915) {
        await server.restart();
      }
      await sleep(rng.int(0, 20));
    }

    // Heal the network and let everything drain.
    proxy.setBudget(null);
    proxy.resume();
    // Connections opened under the old budget would still be cut: start clean ones.
    proxy.cutAll();
    await waitFor('every outbox to drain', async () => {
      for (const c of clients) {
        if ((await c.db.outbox.count().exec()) > 0) return false;
        if ((await c.db.messages.find({ selector: { status: { $ne: 'confirmed' } } }).exec()).length > 0)
          return false;
      }
      return true;
    });
    for (const c of clients) {
      await waitFor('a final catch-up', () =>
        c.engine.channelsChanged().then(
          () => true,
          () => false,
        ),
      );
      await c.engine.settled();
    }

    // 1. Stored exactly once: every genId sent has one row in the server's database, and nothing else.
    const rows = await server.ctx.db
      .select()
      .from(messagesTable)
      .where(eq(messagesTable.channelId, channelId));
    const serverGenIds = rows.map((r) => r.genId).sort();
    expect(serverGenIds).toEqual(sent.map((s) => s.genId).sort());

    // 2. Convergence: every client holds exactly the server's history, in the server's order.
    const history = rows
      .map((r) => ({ genId: r.genId, createdSeq: Number(r.createdSeq) }))
      .sort((a, b) => a.createdSeq - b.createdSeq);
    for (const c of clients) {
      const local = (await c.db.messages.find({ selector: { channelId } }).exec())
        .map((d) => ({ genId: d.genId, createdSeq: d.createdSeq, status: d.status }))
        .sort((a, b) => a.createdSeq - b.createdSeq);
      expect(local.map(({ genId, createdSeq }) => ({ genId, createdSeq }))).toEqual(history);
      expect(local.every((m) => m.status === 'confirmed')).toBe(true);
    }

    // 3. Each sender's order is kept: createdSeq rises in the order the sender wrote them.
    const position = new Map(history.map((h) => [h.genId, h.createdSeq]));
    for (let sender = 0; sender < CLIENTS; sender++) {
      const seqs = sent.filter((s) => s.sender === sender).map((s) => position.get(s.genId)!);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  } catch (error) {
    for (const [i, c] of clients.entries()) {
      const rows = (await c.db.outbox.find().exec()).map((r) => `${r.state}/${r.attempts}/${r.lastError}`);
      const unsettled = (await c.db.messages.find({ selector: { status: { $ne: 'confirmed' } } }).exec()).map(
        (m) => `${m.genId.slice(-6)}:${m.status}`,
      );
      console.error(
        `client ${i}: ${await c.engine.getConnectionStatus()}, outbox [${rows.join(', ')}], unconfirmed [${unsettled.join(', ')}]`,
      );
    }
    console.error(`Sync fuzz failed: replay with FUZZ_SEED=${seed}`);
    throw error;
  } finally {
    proxy.setBudget(null);
    proxy.resume();
    for (const c of clients) {
      c.engine.close();
      await c.db.remove();
    }
  }
}

const seeds = ONLY_SEED !== null ? [ONLY_SEED] : Array.from({ length: SEED_COUNT }, (_, i) => i + 1);

describe('sync fuzz: exactly once, convergence and sender order under cut connections and restarts', () => {
  for (const { name, seed } of REGRESSION_SEEDS) {
    it(`regression: ${name} (seed ${seed})`, () => runSeed(seed), 60_000);
  }
  for (const seed of seeds) {
    it(`seed ${seed}`, () => runSeed(seed), 60_000);
  }
});
