// Sync fuzz on real sockets, the second layer under network-fuzz.test.ts: several clients' real sync
// engines (each the full store and the real socket.io-client, in its own thread) send messages to a real
// server through a fault-injecting TCP proxy that cuts connections at random points, while the server is
// sometimes restarted on the same data. Real timers and TCP make a seed's run vary; what it adds is the
// real transport. Every seed asserts: each message sent is stored exactly once, every client converges to
// the server's history, each sender's order holds.
// PROXY_FUZZ_SEEDS=n runs more seeds; FUZZ_SEED=n replays one; failing seeds are pinned in REGRESSION_SEEDS.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, ChannelMember, InstitutionWithMember } from '../../schemas/protocol/index.ts';
import { messages as messagesTable } from '../../server/db/schema.ts';
import { startTestServer, type TestServer, type TestUser } from '../server/harness.ts';
import { memberIdOf } from '../server/workspace-world.ts';
import { ClientThread } from './client-thread.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { prng } from './prng.ts';

const SEED_COUNT = Number(process.env.PROXY_FUZZ_SEEDS ?? 200);
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
const memberIds: string[] = [];
const clients: ClientThread[] = [];
let runs = 0;

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
  const ws = { id: institutionId, owner, general: undefined as unknown as Channel };
  for (const u of users) memberIds.push(await memberIdOf(ws, u));
  for (let i = 0; i < CLIENTS; i++) clients.push(new ClientThread(`client ${i}`));
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.terminate()));
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

async function runSeed(seed: number): Promise<void> {
  runs++;
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

  const sent: { genId: string; sender: number }[] = [];
  try {
    // Each client in its own thread: they open side by side, as three people's apps would.
    await Promise.all(
      users.map((u, i) =>
        clients[i]!.open({
          databaseName: `proxy-${seed}-${i}-${runs}`,
          token: u.token,
          user: u.user,
          memberId: memberIds[i]!,
          institutionId,
          channelIds: [channelId],
          realUrl: proxy.url,
          timings: FAST_TIMINGS,
        }),
      ),
    );
    // Faults: about half the connections are cut after a random number of bytes.
    proxy.setBudget(() => (rng.chance(0.5) ? rng.int(40, 6_000) : null));

    const steps = rng.int(4, 10);
    for (let step = 0; step < steps; step++) {
      const roll = rng.next();
      if (roll < 0.6) {
        const sender = rng.int(0, CLIENTS - 1);
        const label = `s${seed} c${sender} #${sent.filter((s) => s.sender === sender).length}`;
        const result = await clients[sender]!.act({ kind: 'post', label });
        for (const m of result.created) sent.push({ genId: m.genId, sender });
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
        const snapshot = await c.snapshot();
        if (snapshot.outbox > 0) return false;
        if (snapshot.messages.some((m) => m.status !== 'confirmed')) return false;
      }
      return true;
    });
    for (const c of clients) {
      await waitFor('a final catch-up', () =>
        c.catchUp().then(
          () => true,
          () => false,
        ),
      );
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
      const local = (await c.snapshot()).messages
        .filter((m) => m.channelId === channelId)
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
      const snapshot = await c.snapshot().catch(() => null);
      const unsettled = snapshot?.messages
        .filter((m) => m.status !== 'confirmed')
        .map((m) => `${m.genId.slice(-6)}:${m.status}`);
      console.error(
        `client ${i}: ${snapshot?.connection}, outbox ${snapshot?.outbox}, unconfirmed [${unsettled?.join(', ')}]`,
      );
    }
    console.error(
      `Sync fuzz (proxy) failed: replay with FUZZ_SEED=${seed} npx vitest run tests/sync/proxy-fuzz.test.ts`,
    );
    throw error;
  } finally {
    proxy.setBudget(null);
    proxy.resume();
    await Promise.all(clients.map((c) => c.close()));
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
