// Sessions as an attacker meets them: a stolen token stops working once it has sat idle or grown old,
// a person sees their devices and signs any of them out (its sockets close, on every node), and nobody
// can list, revoke or outnumber the sockets of a session that is not theirs.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserSession } from '../../schemas/protocol/index.ts';
import { createApp, type LanternServer } from '../../server/app.ts';
import { sessions } from '../../server/db/schema.ts';
import { type Api, databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';

const DAY_MS = 24 * 60 * 60_000;
const sockets: Socket[] = [];

function openSocket(url: string, token: string): Socket {
  const socket = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return socket;
}

/** Resolves when the socket connects; rejects with the server's refusal. */
function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

const refusal = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('connect_error', (err) => resolve(err.message)));
const disconnection = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('disconnect', resolve));

afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

describe.each(databases)('session lifetime and devices on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { SESSION_IDLE_DAYS: '30', SESSION_MAX_DAYS: '90' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Moves the session's clock: what a token stolen today looks like after days without use. */
  async function age(sessionId: string, set: { createdAt?: Date; lastUsedAt?: Date }) {
    await t.ctx.db.update(sessions).set(set).where(eq(sessions.id, sessionId));
  }

  async function currentSessionId(api: Api) {
    const list = await api.get<{ data: UserSession[] }>('/api/users/sessions');
    const current = list.body.data.find((s) => s.current);
    if (!current) throw new Error('no current session');
    return current.id;
  }

  it('refuses a stolen token after SESSION_IDLE_DAYS without use, on REST and on the socket', async () => {
    const victim = await t.signUp();
    const sessionId = await currentSessionId(victim.api);
    expect((await victim.api.get('/api/users')).status).toBe(200);

    await age(sessionId, { lastUsedAt: new Date(Date.now() - 31 * DAY_MS) });
    const res = await victim.api.get('/api/users');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('session invalid');
    expect(await refusal(openSocket(t.url, victim.token))).toBe('session invalid');
  });

  it('refuses a token older than SESSION_MAX_DAYS even when it is used every day', async () => {
    const victim = await t.signUp();
    const sessionId = await currentSessionId(victim.api);
    await age(sessionId, { createdAt: new Date(Date.now() - 91 * DAY_MS), lastUsedAt: new Date() });
    const res = await victim.api.get('/api/users');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('session invalid');
  });

  it('keeps a session in use alive: a request moves its last-active time forward', async () => {
    const person = await t.signUp();
    const sessionId = await currentSessionId(person.api);
    await age(sessionId, { lastUsedAt: new Date(Date.now() - 29 * DAY_MS) });
    expect((await person.api.get('/api/users')).status).toBe(200);
    const list = await person.api.get<{ data: UserSession[] }>('/api/users/sessions');
    const lastUsed = Date.parse(list.body.data[0]?.lastUsedAt ?? '');
    expect(Date.now() - lastUsed).toBeLessThan(60_000);
  });

  it('lists devices without any secret, and signs one out: its token and its socket stop', async () => {
    const email = uniqueEmail();
    const phone = await t.signUp(email);
    const laptop = await t.signUp(email);
    const list = await laptop.api.get<{ data: UserSession[] }>('/api/users/sessions');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    for (const s of list.body.data) {
      expect(Object.keys(s).sort()).toEqual([
        'createdAt',
        'current',
        'deviceName',
        'id',
        'lastUsedAt',
        'sameDevice',
        'userAgent',
      ]);
    }
    expect(JSON.stringify(list.body)).not.toContain(phone.token);
    const phoneId = list.body.data.find((s) => !s.current)?.id;

    const phoneSocket = openSocket(t.url, phone.token);
    const laptopSocket = openSocket(t.url, laptop.token);
    await Promise.all([connected(phoneSocket), connected(laptopSocket)]);
    const closed = disconnection(phoneSocket);

    expect((await laptop.api.delete(`/api/users/sessions/${phoneId}`)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect((await phone.api.get('/api/users')).status).toBe(401);
    expect(laptopSocket.connected).toBe(true);
    expect((await laptop.api.get('/api/users')).status).toBe(200);
  });

  it("answers 404 for someone else's session id and leaves that session working", async () => {
    const victim = await t.signUp();
    const victimSessionId = await currentSessionId(victim.api);
    const stranger = await t.signUp();

    const res = await stranger.api.delete(`/api/users/sessions/${victimSessionId}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No such session on your account');
    expect((await victim.api.get('/api/users')).status).toBe(200);
    const bad = await stranger.api.delete(`/api/users/sessions/${'x'.repeat(90)}`);
    expect(bad.status).toBe(400);
  });

  it('signs out everywhere else: the other devices stop, this one stays', async () => {
    const email = uniqueEmail();
    const stolen = await t.signUp(email);
    const other = await t.signUp(email);
    const me = await t.signUp(email);
    const stolenSocket = openSocket(t.url, stolen.token);
    await connected(stolenSocket);
    const closed = disconnection(stolenSocket);

    const res = await me.api.post<{ revoked: number }>('/api/users/sessions/revoke-others');
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(2);
    expect(await closed).toBe('io server disconnect');
    expect((await stolen.api.get('/api/users')).status).toBe(401);
    expect((await other.api.get('/api/users')).status).toBe(401);
    const list = await me.api.get<{ data: UserSession[] }>('/api/users/sessions');
    expect(list.body.data.map((s) => s.current)).toEqual([true]);
  });
});

describe.each(databases)('sockets per session on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { SOCKETS_PER_SESSION: '2' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses one socket more than SOCKETS_PER_SESSION for one token, and not for another device', async () => {
    const email = uniqueEmail();
    const thief = await t.signUp(email);
    await connected(openSocket(t.url, thief.token));
    await connected(openSocket(t.url, thief.token));
    const refused = await refusal(openSocket(t.url, thief.token));
    expect(refused).toBe('Too many open connections for this session. Close other tabs and try again.');

    const owner = await t.signUp(email);
    await connected(openSocket(t.url, owner.token));
  });
});

const { REDIS_URL } = process.env;
const twoNodes = REDIS_URL && databases.includes('postgres') ? describe : describe.skip;

twoNodes('revoking a session across two nodes sharing PostgreSQL and Redis', () => {
  let a: TestServer;
  let b: LanternServer;
  let bUrl = '';
  beforeAll(async () => {
    a = await startTestServer('postgres', { env: { REDIS_URL: REDIS_URL ?? '' } });
    b = await createApp({ ...a.config, PORT: 0, CLIENT_DIR: path.join(a.config.dataDir, 'none') });
    bUrl = (await b.listen()).url;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('disconnects the revoked session’s socket on the other node', async () => {
    const email = uniqueEmail();
    const stolen = await a.signUp(email);
    const me = await a.signUp(email);
    const onB = openSocket(bUrl, stolen.token);
    await connected(onB);
    const closed = disconnection(onB);
    const list = await me.api.get<{ data: UserSession[] }>('/api/users/sessions');
    const stolenId = list.body.data.find((s) => !s.current)?.id;

    expect((await me.api.delete(`/api/users/sessions/${stolenId}`)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
  });
});
