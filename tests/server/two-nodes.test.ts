// Two Lantern processes on different ports sharing one PostgreSQL database and one Redis: a message posted
// through node A reaches a client of node B exactly once, and a repeated post reaches it not at all.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, Message, ServerToClientEvents } from '../../schemas/protocol/index.ts';
import { hashToken, newToken } from '../../server/auth/tokens.ts';
import { addChannelMember, createChannelWithRoles } from '../../server/channels/setup.ts';
import { openDatabase } from '../../server/db/client.ts';
import { institutions, members, sessions, users } from '../../server/db/schema.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const { DATABASE_URL, REDIS_URL } = process.env;
const enabled = Boolean(DATABASE_URL && REDIS_URL);
const title = enabled
  ? 'two nodes sharing PostgreSQL and Redis'
  : 'two nodes sharing PostgreSQL and Redis (skipped: needs DATABASE_URL and REDIS_URL)';

/** How long to keep listening after the first delivery, to be sure no duplicate follows. */
const QUIET_MS = 1_500;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`node exited early:\n${output()}`);
    try {
      await fetch(`${url}/api/institutions`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`node did not start:\n${output()}`);
}

interface Node {
  url: string;
  stop(): Promise<void>;
}

async function startNode(databaseUrl: string, redisUrl: string): Promise<Node> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lantern-node-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, child, () => log);
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function connect(url: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket: Client = io(url, {
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnection: false,
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** Two signed-in users, one workspace, one channel they both belong to. */
async function seed(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl, dbDir: '' });
  const { db } = database;
  const institutionId = randomUUID();
  const people = [0, 1].map((i) => ({
    userId: randomUUID(),
    memberId: randomUUID(),
    token: newToken(),
    email: `node${i}-${randomUUID()}@example.test`,
  }));
  await db
    .insert(users)
    .values(people.map((p, i) => ({ id: p.userId, email: p.email, name: `Person ${i}` })));
  await db
    .insert(sessions)
    .values(people.map((p) => ({ id: randomUUID(), userId: p.userId, tokenHash: hashToken(p.token) })));
  await db.insert(institutions).values({ id: institutionId, name: 'Two nodes' });
  await db.insert(members).values(
    people.map(
      (p, i) =>
        ({
          id: p.memberId,
          institutionId,
          userId: p.userId,
          role: i === 0 ? 'primary_owner' : 'member',
        }) as const,
    ),
  );
  // The channel gets its roles the way the app makes them, so posting is allowed by its default role.
  const { channel } = await createChannelWithRoles(db, {
    institutionId,
    name: 'general',
    type: 'public',
    isDefault: true,
    createdBy: people[0]!.memberId,
  });
  for (const p of people) await addChannelMember(db, channel.id, p.memberId);
  await database.close();
  return {
    institutionId,
    channelId: channel.id,
    alice: people[0] as (typeof people)[0],
    bob: people[1] as (typeof people)[0],
  };
}

describe.runIf(enabled)(title, () => {
  const dbName = `lantern_two_nodes_${Date.now()}_${process.pid}`;
  let databaseUrl = '';
  let nodes: Node[] = [];
  let sockets: Client[] = [];
  let world: Awaited<ReturnType<typeof seed>>;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(DATABASE_URL as string);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    world = await seed(databaseUrl);
    // seed() has applied the migrations; the nodes start one after the other all the same.
    nodes.push(await startNode(databaseUrl, REDIS_URL as string));
    nodes.push(await startNode(databaseUrl, REDIS_URL as string));
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await Promise.all(nodes.map((n) => n.stop()));
    nodes = [];
    sockets = [];
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }, 60_000);

  it('delivers a message posted on node A to a client of node B exactly once, and a repeat not at all', async () => {
    const [nodeA, nodeB] = nodes as [Node, Node];
    const alice = await connect(nodeA.url, world.alice.token);
    const bob = await connect(nodeB.url, world.bob.token);
    sockets.push(alice, bob);
    const ref = { institutionId: world.institutionId, channelId: world.channelId };
    expect(await alice.timeout(10_000).emitWithAck('joinChannel', ref)).toEqual({ ok: true });
    expect(await bob.timeout(10_000).emitWithAck('joinChannel', ref)).toEqual({ ok: true });

    const received: Message[] = [];
    bob.on('newMessage', (m) => received.push(m));

    const post = { ...ref, genId: randomUUID(), content: '<p>hello from node A</p>' };
    const first = (await alice.timeout(10_000).emitWithAck('postMessage', post)) as Message;
    expect(first.content).toBe('<p>hello from node A</p>');

    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(received.map((m) => m.id)).toEqual([first.id]);

    const repeat = (await alice.timeout(10_000).emitWithAck('postMessage', post)) as Message;
    expect(repeat.id).toBe(first.id);
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(received).toHaveLength(1);
  });

  it('stores one message when the same post races on both nodes, and the posts beside it still land', async () => {
    const [nodeA, nodeB] = nodes as [Node, Node];
    const aliceA = await connect(nodeA.url, world.alice.token);
    const aliceB = await connect(nodeB.url, world.alice.token);
    const bobB = await connect(nodeB.url, world.bob.token);
    sockets.push(aliceA, aliceB, bobB);
    const ref = { institutionId: world.institutionId, channelId: world.channelId };
    const post = (socket: Client, genId: string, content: string) =>
      socket.timeout(10_000).emitWithAck('postMessage', { ...ref, genId, content }) as Promise<Message>;

    for (let round = 0; round < 5; round++) {
      const genId = randomUUID();
      // The same post on both nodes at once, each beside another post that shares its node's batch.
      const [onA, onB, besideA, besideB] = await Promise.all([
        post(aliceA, genId, '<p>twice</p>'),
        post(aliceB, genId, '<p>twice</p>'),
        post(aliceA, randomUUID(), `<p>beside on A ${round}</p>`),
        post(bobB, randomUUID(), `<p>beside on B ${round}</p>`),
      ]);
      expect(onB.id).toBe(onA.id);
      expect(besideA.content).toBe(`<p>beside on A ${round}</p>`);
      expect(besideB.content).toBe(`<p>beside on B ${round}</p>`);
      expect(new Set([onA.seq, besideA.seq, besideB.seq]).size).toBe(3);
    }
  });
});
