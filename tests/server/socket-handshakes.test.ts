// Sockets that open together (a reconnect storm, a deploy): each is still admitted or refused on its own
// token against the database, joins its own person's workspaces, and touches its own session; and their
// handshakes share the database's reads instead of taking two statements each (server/realtime/handshakes.ts).
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions } from '../../server/db/schema.ts';
import { MAX_HANDSHAKES_PER_READ } from '../../server/realtime/handshakes.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  type Client,
  connect,
  disconnectAll,
  eventually,
  makeWorkspace,
  pause,
  type Workspace,
} from './messaging-world.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Long enough for a broadcast that should not happen to have arrived on this machine. */
const QUIET_MS = 300;

type PresenceUpdate = { user: { id: string }; status: 'online' | 'offline' };
/** The ids of everyone the socket hears come online, alone or batched. */
const hearsOnline = (socket: Client) => {
  const ids: string[] = [];
  const hear = (u: PresenceUpdate) => u.status === 'online' && ids.push(u.user.id);
  socket.on('userOnlineStatusUpdate', hear);
  socket.on('userOnlineStatusUpdates', (e) => e.updates.forEach(hear));
  return ids;
};

/** Where every statement of Drizzle's database handle is prepared (its `session`). */
interface Statements {
  prepareQuery(query: { sql: string }, ...rest: unknown[]): { execute(...args: unknown[]): Promise<unknown> };
}

/** The refusal a socket gets, or 'connected'. */
const outcome = (p: Promise<Client>) =>
  p.then(
    () => 'connected',
    (err: Error) => err.message,
  );

describe.each(databases)('sockets opened together on %s', (kind) => {
  let t: TestServer;
  let a: Workspace;
  let b: Workspace;
  let inA: TestUser[];
  let inB: TestUser[];
  let inBoth: TestUser;

  beforeAll(async () => {
    t = await startTestServer(kind, { env: { SESSION_IDLE_DAYS: '30' } });
    a = await makeWorkspace(t, 'A');
    b = await makeWorkspace(t, 'B');
    inA = [await addMember(t, a), await addMember(t, a), await addMember(t, a)];
    inB = [await addMember(t, b), await addMember(t, b)];
    inBoth = await addMember(t, a);
    await b.owner.api.post(`/api/institutions/${b.id}/invited-members`, { emails: [inBoth.user.email] });
    expect((await inBoth.api.post(`/api/institutions/${b.id}/members`)).status).toBe(200);
  });
  afterEach(() => {
    disconnectAll();
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await t?.close();
  });

  const sessionOf = async (user: TestUser) => {
    const [row] = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.user.id));
    if (!row) throw new Error('no session');
    return row;
  };

  it('admits or refuses each socket of a burst on its own token, and each joins its own workspaces', async () => {
    const watchA = await connect(t, a.owner.token);
    const watchB = await connect(t, b.owner.token);
    const heardInA = hearsOnline(watchA);
    const heardInB = hearsOnline(watchB);
    const revoked = await t.signUp();
    await revoked.api.put('/api/users/logout');
    const idle = await t.signUp();
    await t.ctx.db
      .update(sessions)
      .set({ lastUsedAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(sessions.userId, idle.user.id));

    const admitted = [...inA, ...inB, inBoth];
    const outcomes = await Promise.all([
      ...admitted.map((p) => outcome(connect(t, p.token))),
      outcome(connect(t, 'not-a-token')),
      outcome(connect(t, revoked.token)),
      outcome(connect(t, idle.token)),
      outcome(connect(t, undefined)),
    ]);
    expect(outcomes).toEqual([
      ...admitted.map(() => 'connected'),
      'session invalid',
      'session invalid',
      'session invalid',
      'session invalid',
    ]);

    const idsOf = (people: TestUser[]) => people.map((p) => p.user.id).sort();
    // The watchers' own arrival may be heard too (their socket is in the room when it is announced).
    const watchers = new Set([a.owner.user.id, b.owner.user.id]);
    const others = (ids: string[]) => ids.filter((id) => !watchers.has(id)).sort();
    await eventually(() => others(heardInA).length >= 4 && others(heardInB).length >= 3);
    await pause(QUIET_MS);
    expect(others(heardInA)).toEqual(idsOf([...inA, inBoth]));
    expect(others(heardInB)).toEqual(idsOf([...inB, inBoth]));
  });

  it('moves the last-active time of a session due for it when its socket opens in a burst', async () => {
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await t.ctx.db
      .update(sessions)
      .set({ lastUsedAt: tenMinutesAgo })
      .where(eq(sessions.userId, inA[0]?.user.id ?? ''));
    const justNow = (await sessionOf(inA[1] as TestUser)).lastUsedAt;
    await Promise.all([...inA, ...inB].map((p) => connect(t, p.token)));
    expect((await sessionOf(inA[0] as TestUser)).lastUsedAt.getTime()).toBeGreaterThan(
      tenMinutesAgo.getTime(),
    );
    // Not due (used within the touch interval): left as it was.
    expect((await sessionOf(inA[1] as TestUser)).lastUsedAt).toEqual(justNow);
  });

  it('reads the sessions of sockets that arrive while a read is in flight in one statement, not one each', async () => {
    // Hold every read of the sessions table until the whole burst has reached the server, as a busy database
    // (or PGlite busy on this thread) would.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sessionReads = 0;
    const session = (t.ctx.db as unknown as { session: Statements }).session;
    const prepare = session.prepareQuery.bind(session);
    vi.spyOn(session, 'prepareQuery').mockImplementation((query, ...rest) => {
      const prepared = prepare(query, ...rest);
      if (!/^select .* from "sessions"/.test(query.sql)) return prepared;
      sessionReads += 1;
      const execute = prepared.execute.bind(prepared);
      prepared.execute = async (...args) => {
        await held;
        return execute(...args);
      };
      return prepared;
    });
    let handshakes = 0;
    const countHandshakes = (raw: {
      on(e: 'packet', l: (p: { type: string; data?: unknown }) => void): void;
    }) =>
      raw.on('packet', (p) => {
        // socket.io's CONNECT packet to the main namespace: the handshake that carries the token.
        if (p.type === 'message' && String(p.data).startsWith('0')) handshakes += 1;
      });
    t.server.io.engine.on('connection', countHandshakes);

    const people = [...inA, ...inB, inBoth];
    // Twelve sockets per person (tabs), plus one stranger: 73 handshakes, more than one read takes.
    const burst = [
      ...people.flatMap((p) => Array.from({ length: 12 }, () => outcome(connect(t, p.token)))),
      outcome(connect(t, 'not-a-token')),
    ];
    try {
      await eventually(() => handshakes === burst.length);
    } finally {
      t.server.io.engine.off('connection', countHandshakes);
      release();
    }
    const outcomes = await Promise.all(burst);
    expect(outcomes.filter((o) => o === 'connected')).toHaveLength(people.length * 12);
    expect(outcomes.at(-1)).toBe('session invalid');
    // The first read (whoever arrived in its turn), then everyone who arrived while it was held, 64 a read.
    expect(sessionReads).toBeLessThanOrEqual(1 + Math.ceil(burst.length / MAX_HANDSHAKES_PER_READ));
  });
});
