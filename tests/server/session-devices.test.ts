// Settings → Devices as the server keeps it: each session's readable device name, its device id
// (sessionClientId, from the sign-in header or the first ping), last activity moved by the ping, two
// sign-ins of one device told apart, and sessions forgotten after the 30-day retention.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SESSION_CLIENT_HEADER,
  type SigninResponse,
  type UserSession,
} from '../../schemas/protocol/index.ts';
import { deviceName } from '../../server/auth/device-name.ts';
import { purgeOldSessions } from '../../server/auth/session-retention.ts';
import { sessions } from '../../server/db/schema.ts';
import { databases, makeApi, startTestServer, type TestServer, uniqueEmail } from './harness.ts';

const DAY_MS = 24 * 60 * 60_000;
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const deviceId = (traits: string) => createHash('sha256').update(traits).digest('hex');

describe('device names', () => {
  it.each([
    [ANDROID_CHROME, 'Chrome on Android'],
    [IPHONE_SAFARI, 'Safari on iPhone'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0',
      'Firefox on macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1',
      'Chrome on iPhone',
    ],
    ['curl/8.5.0', 'Unknown device'],
    [null, 'Unknown device'],
  ])('%s → %s', (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });
});

describe.each(databases)('devices on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Signs in as a browser would: its user agent, and its device id in the sign-in header when given. */
  async function signIn(email: string, userAgent: string, clientId?: string) {
    const anon = makeApi(t.url);
    await anon.get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
    const res = await fetch(new URL('/api/auth/signin', t.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': userAgent,
        ...(clientId ? { [SESSION_CLIENT_HEADER]: clientId } : {}),
      },
      body: JSON.stringify({ email, code: t.lastCode(email) }),
    });
    const body = (await res.json()) as SigninResponse;
    return makeApi(t.url, body.accessToken);
  }

  const list = async (api: ReturnType<typeof makeApi>) =>
    (await api.get<{ data: UserSession[] }>('/api/users/sessions')).body.data;

  it('names each device, marks this one, and tells a second sign-in of the same device apart', async () => {
    const email = uniqueEmail('devices');
    const phoneId = deviceId('android-traits');
    const phone = await signIn(email, ANDROID_CHROME, phoneId);
    const phoneAgain = await signIn(email, ANDROID_CHROME, phoneId);
    const iphone = await signIn(email, IPHONE_SAFARI, deviceId('iphone-traits'));

    const seen = await list(phone);
    expect(seen).toHaveLength(3);
    const byName = seen.map((s) => [s.deviceName, s.current, s.sameDevice]);
    expect(byName).toEqual(
      expect.arrayContaining([
        ['Chrome on Android', true, false],
        ['Chrome on Android', false, true],
        ['Safari on iPhone', false, false],
      ]),
    );
    // The iPhone sees no session of its own device besides itself.
    expect((await list(iphone)).filter((s) => s.sameDevice)).toEqual([]);
    expect((await list(phoneAgain)).filter((s) => s.sameDevice)).toHaveLength(1);
  });

  it('learns the device id and last activity from the ping, and refuses a malformed id', async () => {
    const email = uniqueEmail('ping');
    const api = await signIn(email, IPHONE_SAFARI);
    const [mine] = await list(api);
    if (!mine) throw new Error('no session');
    const old = new Date(Date.now() - 3 * DAY_MS);
    await t.ctx.db.update(sessions).set({ lastUsedAt: old }).where(eq(sessions.id, mine.id));

    const bad = await api.put('/api/users/sessions/ping', { sessionClientId: 'not-a-hash' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Not a device id');

    const id = deviceId('ipad');
    expect((await api.put('/api/users/sessions/ping', { sessionClientId: id })).status).toBe(200);
    const [row] = await t.ctx.db.select().from(sessions).where(eq(sessions.id, mine.id));
    expect(row?.sessionClientId).toBe(id);
    expect(row?.lastUsedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // A ping without a body still counts as activity.
    expect((await api.put('/api/users/sessions/ping')).status).toBe(200);
  });

  it('forgets sessions after the 30-day retention and keeps the live ones', async () => {
    const email = uniqueEmail('retention');
    const live = await signIn(email, ANDROID_CHROME);
    const idle = await signIn(email, IPHONE_SAFARI);
    const revoked = await signIn(email, IPHONE_SAFARI);
    const all = await list(live);
    const idOf = async (api: ReturnType<typeof makeApi>) =>
      (await list(api)).find((s) => s.current)?.id ?? '';
    const [liveId, idleId, revokedId] = [await idOf(live), await idOf(idle), await idOf(revoked)];
    expect(all).toHaveLength(3);

    await t.ctx.db
      .update(sessions)
      .set({ lastUsedAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(sessions.id, idleId));
    await t.ctx.db
      .update(sessions)
      .set({ revokedAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(sessions.id, revokedId));

    const purged = await purgeOldSessions(t.ctx.db, t.config);
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = await t.ctx.db.select({ id: sessions.id }).from(sessions);
    const ids = left.map((r) => r.id);
    expect(ids).toContain(liveId);
    expect(ids).not.toContain(idleId);
    expect(ids).not.toContain(revokedId);
    expect((await live.get('/api/users')).status).toBe(200);
  });

  it('keeps a session an operator lets idle longer than the retention', async () => {
    const email = uniqueEmail('long-idle');
    const api = await signIn(email, ANDROID_CHROME);
    const id = (await list(api)).find((s) => s.current)?.id ?? '';
    await t.ctx.db
      .update(sessions)
      .set({ lastUsedAt: new Date(Date.now() - 40 * DAY_MS) })
      .where(eq(sessions.id, id));
    await purgeOldSessions(t.ctx.db, { SESSION_IDLE_DAYS: 60, SESSION_MAX_DAYS: 90 });
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.id, id))).toHaveLength(1);
  });
});
