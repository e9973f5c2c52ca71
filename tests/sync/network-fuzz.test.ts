// Sync fuzz over the held network: three clients, each the full store and the real sync engine in its own
// thread, against a real server. Every message between them waits until the seed's schedule flushes it,
// and every client's clock moves only when the schedule says, so a seed replays the same run. Clients
// post, edit, delete, react, pin, make polls, vote and forward, while connections drop and the server
// restarts. Every seed asserts: each message made is stored exactly once, every client's store equals the
// server's, each sender's order holds, and the seed did work.
// FUZZ_SEEDS=n runs n seeds; FUZZ_SEED=n replays one; failing seeds are pinned in REGRESSION_SEEDS.
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDoc } from '../../schemas/collections.ts';
import type { Message, MessagePage } from '../../schemas/protocol/index.ts';
import { messages as messagesTable } from '../../server/db/schema.ts';
import type { Timings } from '../../worker/timings.ts';
import { databases, startTestServer, type TestServer } from '../server/harness.ts';
import { makeChannel, makeWorkspace, type Workspace } from '../server/messaging-world.ts';
import { addPerson, memberIdOf, type Person } from '../server/workspace-world.ts';
import type { ActionResult, FuzzAction } from './fuzz-client.ts';
import { barrierMark, HeldClient } from './held-network.ts';
import { prng } from './prng.ts';

const SEED_COUNT = Number(process.env.FUZZ_SEEDS ?? 200);
const ONLY_SEED = process.env.FUZZ_SEED === undefined ? null : Number(process.env.FUZZ_SEED);
/** Seeds that once failed, kept as named regression tests (they run whatever FUZZ_SEEDS says). */
const REGRESSION_SEEDS: { name: string; seed: number }[] = [];

const CLIENTS = 3;
/** A seed with plenty of traffic held and flushed, run twice to show the run is the seed's alone. */
const REPLAYED_SEED = Number(process.env.FUZZ_REPLAYED_SEED ?? 2);
/** The production values but for connecting: the held network connects only when the schedule says. */
const TIMINGS: Timings = {
  ackTimeoutMs: 10_000,
  resyncIntervalMs: 60_000,
  reconnectionDelayMs: 1_000,
  reconnectionDelayMaxMs: 5_000,
  connectTimeoutMs: 3_600_000,
};

let server: TestServer;
let ws: Workspace;
const people: Person[] = [];
const clients: HeldClient[] = [];
/** The running seed's channels: where the server's broadcasts go. */
let seedChannels: string[] = [];

/** Lets every push the server wrote reach the held queues before the schedule goes on. */
async function serverWork(): Promise<void> {
  const channelBarriers = seedChannels.map(async (channelId, index) => {
    const mark = barrierMark(index);
    const room = await server.server.io.in(`channel:${channelId}`).fetchSockets();
    const inRoom = new Set(room.map((s) => s.id));
    const arrived = clients
      .filter((c) => c.socketId && inRoom.has(c.socketId))
      .map((c) => c.channelBarrier(mark));
    server.ctx.broadcast.toChannel(channelId, 'refresh', { value: 'channelMembers', channelId: mark });
    await Promise.all(arrived);
  });
  await Promise.all([...clients.map((c) => c.barrier()), ...channelBarriers]);
}

/** Cuts a client's connection and waits until the server has seen it go (and said so to the others). */
async function cut(c: HeldClient): Promise<void> {
  const id = c.socketId;
  const serverSide = id ? server.server.io.sockets.sockets.get(id) : undefined;
  const gone = serverSide
    ? new Promise<void>((resolve) => serverSide.once('disconnect', () => setImmediate(resolve)))
    : Promise.resolve();
  c.cut();
  await gone;
  await serverWork();
}

/** Clients share nothing but the held queues, each its own: settling them side by side changes no order. */
async function settleAll(): Promise<void> {
  await Promise.all(clients.map((c) => c.settle()));
}

beforeAll(async () => {
  // PostgreSQL when there is one: a restart takes a fifth of PGlite's.
  server = await startTestServer(databases.at(-1) ?? 'pglite', {
    onDisk: true,
    // The schedule, not the clock, decides what reaches the server: no real-time budget may refuse it.
    env: {
      SOCKET_EVENTS_PER_SECOND: '1000000',
      SOCKET_EVENT_BURST: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
      RATE_LIMIT_PER_USER: '1000000',
    },
  });
  ws = await makeWorkspace(server, 'fuzz');
  people.push({ ...ws.owner, memberId: await memberIdOf(ws, ws.owner) });
  for (let i = 1; i < CLIENTS; i++) people.push(await addPerson(server, ws));
  for (let i = 0; i < CLIENTS; i++) clients.push(new HeldClient(`client ${i}`, server, serverWork));
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.terminate()));
  await server?.close();
});

const ACTIONS: [FuzzAction['kind'], number][] = [
  ['post', 30],
  ['edit', 10],
  ['delete', 5],
  ['react', 15],
  ['pin', 8],
  ['poll', 6],
  ['vote', 12],
  ['forward', 8],
];

function pickAction(rng: ReturnType<typeof prng>, label: string): FuzzAction {
  const total = ACTIONS.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng.next() * total;
  let kind: FuzzAction['kind'] = 'post';
  for (const [k, w] of ACTIONS) {
    if (roll < w) {
      kind = k;
      break;
    }
    roll -= w;
  }
  const pick = rng.next();
  switch (kind) {
    case 'post':
    case 'poll':
      return { kind, label };
    case 'edit':
      return { kind, label: `${label} (edited)`, pick };
    case 'react':
      return { kind, pick, emoji: rng.chance(0.5) ? '👍' : '🎉' };
    case 'vote':
      return { kind, pick, option: rng.int(0, 2) };
    default:
      return { kind, pick };
  }
}

/** Delivers everything held, in order, until nothing is held and every client is quiet. */
async function drainNetwork(rounds = 200): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const c of clients) await c.connect();
    let moved = 0;
    for (const c of clients) {
      while (c.held > 0) {
        moved++;
        if (c.up.length > 0) await c.flushUp();
        else if (c.requests.length > 0) await c.flushRequest(0);
        else if (c.answers.length > 0) c.flushAnswer(0);
        else c.flushDown();
        await c.settle();
      }
    }
    await settleAll();
    if (moved === 0 && clients.every((c) => c.held === 0)) return;
  }
  throw new Error('the network never went quiet');
}

/** The server's view of a message, as the clients keep it (starred is per person and left out). */
function shape(m: Pick<MessageDoc, 'genId' | 'content' | 'createdSeq' | 'isPinned' | 'reactions' | 'poll'>) {
  return {
    genId: m.genId,
    content: m.content,
    createdSeq: m.createdSeq,
    isPinned: m.isPinned,
    reactions: m.reactions
      .map((r) => ({ emoji: r.emoji, memberIds: [...r.memberIds].sort() }))
      .filter((r) => r.memberIds.length > 0)
      .sort((a, b) => a.emoji.localeCompare(b.emoji)),
    poll: m.poll && {
      options: m.poll.options.map((o) => ({ text: o.text, memberIds: [...o.memberIds].sort() })),
      closed: m.poll.closedAt !== null,
    },
  };
}

async function serverHistory(channelId: string): Promise<Message[]> {
  const res = await ws.owner.api.get<MessagePage>(
    `/api/institutions/${ws.id}/channels/${channelId}/messages?page=1&limit=100`,
  );
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Seeds run so far: each run opens databases of its own names. */
let runs = 0;

/** Runs one seed; returns its trace (each step and what was held after it). */
async function runSeed(seed: number): Promise<string[]> {
  runs++;
  const rng = prng(seed);
  const [main, forwards] = await Promise.all([makeChannel(ws.owner, ws), makeChannel(ws.owner, ws)]);
  seedChannels = [main.id, forwards.id];
  const joins = people
    .slice(1)
    .flatMap((p) =>
      [main, forwards].map((ch) => p.api.post(`/api/institutions/${ws.id}/channels/${ch.id}/members`)),
    );
  for (const joined of await Promise.all(joins)) expect(joined.status).toBeLessThan(300);
  const made: (ActionResult['created'][number] & { sender: number })[] = [];
  const counts = new Map<string, number>();
  const trace: string[] = [];
  /** One restart a seed at most: it costs a fifth of a second even on PostgreSQL. */
  let restarted = false;
  try {
    // Side by side: an opening client only fills its own held queues (nothing reaches the server until the
    // schedule flushes it), so the order the threads finish in changes nothing the seed does.
    await Promise.all(
      clients.map((c, i) => {
        const p = people[i] as Person;
        return c.open({
          databaseName: `held-${seed}-${i}-${runs}`,
          token: p.token,
          user: p.user,
          memberId: p.memberId,
          institutionId: ws.id,
          channelIds: [main.id, forwards.id],
          timings: TIMINGS,
        });
      }),
    );
    // Every client starts with a post of its own, so that there is something to edit, react to and forward.
    for (const [i, c] of clients.entries()) {
      const result = await c.act({ kind: 'post', label: `s${seed} c${i} first` });
      for (const m of result.created) made.push({ ...m, sender: i });
    }
    const steps = rng.int(20, 50);
    for (let step = 0; step < steps; step++) {
      const roll = rng.next();
      const i = rng.int(0, CLIENTS - 1);
      const c = clients[i] as HeldClient;
      let what = 'nothing';
      if (roll < 0.3) {
        const action = pickAction(rng, `s${seed} c${i} #${step}`);
        const result = await c.act(action);
        if (!result.skipped) counts.set(action.kind, (counts.get(action.kind) ?? 0) + 1);
        for (const m of result.created) made.push({ ...m, sender: i });
        what = `${action.kind}${result.skipped ? ' (nothing to act on)' : ''}`;
      } else if (roll < 0.75) {
        const choice = rng.int(0, 3);
        if (choice === 0 && c.up.length > 0) {
          what = 'flush up';
          await c.flushUp();
        } else if (choice === 1 && c.down.length > 0) {
          what = 'flush down';
          c.flushDown();
        } else if (choice === 2 && c.requests.length > 0) {
          what = 'flush a request';
          await c.flushRequest(rng.int(0, c.requests.length - 1));
        } else if (c.answers.length > 0) {
          what = 'flush an answer';
          c.flushAnswer(rng.int(0, c.answers.length - 1));
        }
      } else if (roll < 0.84) {
        what = 'connect';
        await c.connect();
      } else if (roll < 0.9) {
        what = 'cut';
        await cut(c);
      } else if (roll < 0.99) {
        const ms = rng.chance(0.5) ? TIMINGS.ackTimeoutMs : TIMINGS.resyncIntervalMs;
        what = `advance ${ms} ms`;
        await c.advance(ms);
      } else if (!restarted) {
        restarted = true;
        what = 'server restart';
        for (const each of clients) each.cut();
        await settleAll();
        await server.restart();
      }
      await settleAll();
      trace.push(`${step} client ${i}: ${what} → ${clients.map((each) => each.describe()).join(' | ')}`);
    }

    // Heal: every client reconnects (and so catches up through the production path: join, pull, settle
    // the outbox), everything held is delivered, and resend timers run until every outbox is empty.
    for (let round = 0; ; round++) {
      await drainNetwork();
      const outboxes = await Promise.all(clients.map(async (c) => (await c.snapshot()).outbox));
      if (outboxes.every((n) => n === 0)) break;
      if (round === 10) throw new Error(`outboxes never drained: ${outboxes.join(', ')}`);
      await Promise.all(clients.map((c) => c.advance(TIMINGS.resyncIntervalMs)));
    }

    const snapshots = await Promise.all(clients.map((c) => c.snapshot()));
    for (const s of snapshots) {
      expect(s.connection).toBe('connected');
      expect(s.outbox).toBe(0);
      expect(s.messages.filter((m) => m.status !== 'confirmed').map((m) => `${m.genId}:${m.status}`)).toEqual(
        [],
      );
    }

    // 1. Stored exactly once: the server holds each message made once, and nothing else.
    const rows = await server.ctx.db
      .select({ genId: messagesTable.genId, channelId: messagesTable.channelId })
      .from(messagesTable)
      .where(inArray(messagesTable.channelId, [main.id, forwards.id]));
    expect(rows.map((r) => `${r.channelId}/${r.genId}`).sort()).toEqual(
      made.map((m) => `${m.channelId}/${m.genId}`).sort(),
    );

    // 2. Convergence: every client's store equals the server's history, message by message.
    for (const channelId of [main.id, forwards.id]) {
      const history = await serverHistory(channelId);
      const live = history
        .filter((m) => m.deletedAt === null)
        .map(shape)
        .sort((a, b) => a.createdSeq - b.createdSeq);
      const deleted = history
        .filter((m) => m.deletedAt !== null)
        .map((m) => m.genId)
        .sort();
      for (const s of snapshots) {
        const mine = s.messages.filter((m) => m.channelId === channelId);
        expect(
          mine
            .filter((m) => m.deletedAt === null)
            .map(shape)
            .sort((a, b) => a.createdSeq - b.createdSeq),
        ).toEqual(live);
        expect(
          mine
            .filter((m) => m.deletedAt !== null)
            .map((m) => m.genId)
            .sort(),
        ).toEqual(deleted);
      }
    }

    // 3. Each sender's order: what one person posted in a channel keeps the order it was written in.
    const seqOf = new Map((await serverHistory(main.id)).map((m) => [m.genId, m.createdSeq]));
    for (let sender = 0; sender < CLIENTS; sender++) {
      const seqs = made
        .filter((m) => m.sender === sender && m.kind !== 'forward')
        .map((m) => seqOf.get(m.genId) ?? -1);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }

    // 4. The seed did work: messages were made and stored, and operations reached the server.
    expect(made.length).toBeGreaterThan(0);
    expect(clients.reduce((sum, c) => sum + c.acknowledged, 0)).toBeGreaterThanOrEqual(made.length);
    return trace;
  } catch (error) {
    const snapshots = await Promise.all(clients.map((c) => c.snapshot().catch(() => null)));
    for (const [i, s] of snapshots.entries())
      console.error(
        `client ${i}: ${s?.connection}, outbox ${s?.outbox}, held ${clients[i]?.held}, unconfirmed ${s?.messages.filter((m) => m.status !== 'confirmed').length}`,
      );
    console.error(`actions: ${JSON.stringify(Object.fromEntries(counts))}`);
    if (process.env.FUZZ_TRACE) console.error(trace.join('\n'));
    console.error(
      `Sync fuzz (held network) failed. Replay: FUZZ_SEED=${seed} npx vitest run tests/sync/network-fuzz.test.ts`,
    );
    throw error;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

const seeds = ONLY_SEED !== null ? [ONLY_SEED] : Array.from({ length: SEED_COUNT }, (_, i) => i + 1);

describe('sync fuzz over the held network: exactly once, convergence and sender order', () => {
  it('a seed replays exactly: the same steps hold the same messages', async () => {
    // A first run loads what the client loads lazily (the REST route table comes with the first call), which
    // takes real time and shifts that run's interleaving; the two compared runs both start warm.
    await runSeed(REPLAYED_SEED);
    const first = await runSeed(REPLAYED_SEED);
    const second = await runSeed(REPLAYED_SEED);
    expect(second).toEqual(first);
    expect(first.filter((line) => line.includes('flush')).length).toBeGreaterThanOrEqual(5);
  }, 90_000);
  for (const { name, seed } of REGRESSION_SEEDS) {
    it(`regression: ${name} (seed ${seed})`, async () => {
      await runSeed(seed);
    }, 60_000);
  }
  for (const seed of seeds) {
    it(`seed ${seed}`, async () => {
      await runSeed(seed);
    }, 60_000);
  }
});
