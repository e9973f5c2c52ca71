// Firebase Cloud Messaging (decision 0046) against a local stand-in for Google's token endpoint and the FCM
// HTTP v1 API (tests/support/fcm-service.ts checks the service account's signed assertion and the bearer):
// a registration token is accepted where FCM is configured, a mention reaches it with the spec §3 fields
// and the unread total, UNREGISTERED deletes it, 429/503 with Retry-After are tried again, malformed
// tokens get a sentence, and a token never carries another person's pushes.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Mention, Message } from '../../schemas/protocol/index.ts';
import { pushSubscriptions } from '../../server/db/schema.ts';
import { retryDelayMs } from '../../server/push/fcm.ts';
import { fcmCredentials } from '../../server/push/fcm-credentials.ts';
import { type FcmService, startFcmService } from '../support/fcm-service.ts';
import { channelWith, makeTeam, type Person, type Team } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { disconnectAll, messagesUrl } from './messaging-world.ts';

describe.each(databases)('Firebase Cloud Messaging on %s', (kind) => {
  let t: TestServer;
  let fcm: FcmService;
  let team: Team;
  let room: Channel;

  beforeAll(async () => {
    fcm = await startFcmService();
    t = await startTestServer(kind, {
      env: {
        FCM_SERVICE_ACCOUNT_FILE: fcm.serviceAccountFile,
        FCM_TOKEN_URL: fcm.tokenUrl,
        FCM_API_URL: fcm.origin,
        PUSH_ALLOW_PRIVATE: 'true',
        OTP_PER_EMAIL_IP_PER_HOUR: '100',
      },
    });
    team = await makeTeam(t);
    room = await channelWith(team.primaryOwner, team.ws, 'public', [team.member, team.admin]);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
    await fcm?.close();
  });

  async function register(who: Pick<Person, 'api'>, token = fcm.register()): Promise<string> {
    const res = await who.api.put('/api/users/sessions/fcm-token', { fcmToken: token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return token;
  }
  async function post(by: Person, mentions: Mention[], content = '<p>hello</p>') {
    const res = await by.api.post<Message>(messagesUrl(team.ws, room.id), {
      content,
      genId: randomUUID(),
      mentions,
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const mention = (...people: Person[]): Mention[] => people.map((p) => ({ type: 'member', id: p.memberId }));
  const forMessage = (m: Message) => fcm.delivered.filter((d) => d.data.messageId === m.id);
  const storedTokens = async (userId: string) =>
    (
      await t.ctx.db
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
    ).map((r) => r.endpoint);

  it('accepts a registration token and pushes a mention to it through FCM v1, with the unread total', async () => {
    const token = await register(team.member);
    const first = await post(team.primaryOwner, mention(team.member), '<p>Lunch at <b>noon</b></p>');
    const got = await fcm.waitFor((d) => d.token === token && d.data.messageId === first.id);
    expect(got.data).toEqual({
      title: `${team.primaryOwner.user.name} in #${room.name}`,
      body: 'Lunch at noon',
      channelId: room.id,
      clientId: team.ws.id,
      messageId: first.id,
      isPwa: 'false',
      requiresRefresh: 'false',
      idOnly: 'false',
      unreadCount: expect.stringMatching(/^[1-9]\d*$/),
    });
    expect(got.webpushHeaders).toMatchObject({ Urgency: 'high', TTL: '86400' });
    expect(got.android).toMatchObject({ priority: 'high' });
    expect(fcm.refused).toEqual([]);

    // The badge number is the person's unread total: one more message unread, one more on the icon.
    const second = await post(team.admin, mention(team.member));
    const next = await fcm.waitFor((d) => d.token === token && d.data.messageId === second.id);
    expect(Number(next.data.unreadCount)).toBe(Number(got.data.unreadCount) + 1);
    // One access token serves many pushes.
    expect(fcm.tokensIssued).toBe(1);
  });

  it('deletes a token FCM calls UNREGISTERED, and sends nothing more to it', async () => {
    const token = await register(team.admin);
    fcm.unregister(token);
    await post(team.primaryOwner, mention(team.admin));
    await expect.poll(() => storedTokens(team.admin.user.id)).toEqual([]);
    expect(fcm.attempts.filter((a) => a === token)).toHaveLength(1);
  });

  it('tries again after the Retry-After FCM asks for when it is busy (429, 503)', async () => {
    const laptop = await t.signUp(team.member.user.email);
    const token = await register(laptop);
    fcm.queueAnswers(token, [
      { status: 429, retryAfter: '1' },
      { status: 503, retryAfter: '0' },
    ]);
    const m = await post(team.primaryOwner, mention(team.member));
    await fcm.waitFor((d) => d.token === token && d.data.messageId === m.id);
    expect(fcm.attempts.filter((a) => a === token)).toHaveLength(3);
    expect(await storedTokens(team.member.user.id)).toContain(`fcm:${token}`);
    expect(forMessage(m).filter((d) => d.token === token)).toHaveLength(1);
  });

  it('never gives a device’s token another person’s pushes', async () => {
    // A tablet passed on: the admin's session registered it, then the member signs in there.
    const token = fcm.register();
    const adminSession = await t.signUp(team.admin.user.email);
    await register(adminSession, token);
    const memberSession = await t.signUp(team.member.user.email);
    await register(memberSession, token);
    const toAdmin = await post(team.primaryOwner, mention(team.admin), '<p>for the admin only</p>');
    const toMember = await post(team.primaryOwner, mention(team.member));
    await fcm.waitFor((d) => d.token === token && d.data.messageId === toMember.id);
    expect(forMessage(toAdmin).filter((d) => d.token === token)).toEqual([]);

    // And the owner's own token gets neither: they wrote both.
    const ownerToken = await register(team.primaryOwner);
    const third = await post(team.admin, mention(team.member));
    await fcm.waitFor((d) => d.token === token && d.data.messageId === third.id);
    expect(fcm.delivered.filter((d) => d.token === ownerToken)).toEqual([]);
  });

  it('refuses malformed tokens with a sentence', async () => {
    for (const fcmToken of [
      'short',
      'x'.repeat(2000),
      `${'a'.repeat(40)} with spaces`,
      `${'a'.repeat(40)}/../../v1/projects/other`,
      `${'a'.repeat(40)}\n`,
      '',
    ]) {
      const res = await team.member.api.put('/api/users/sessions/fcm-token', { fcmToken });
      expect(res.status, fcmToken.slice(0, 40)).toBe(400);
      expect(res.body.message).toMatch(/\w+ \w+ \w+/);
    }
  });
});

describe('Firebase messaging settings', () => {
  it('reads the three fields from the environment, and refuses incomplete or broken ones', async () => {
    const fcm = await startFcmService();
    try {
      const creds = fcmCredentials({
        FCM_PROJECT_ID: fcm.projectId,
        FCM_CLIENT_EMAIL: fcm.clientEmail,
        // One-line environment files write the key's line breaks as \n.
        FCM_PRIVATE_KEY: fcm.privateKeyPem.replace(/\n/g, '\\n'),
      });
      expect(creds).toMatchObject({ projectId: fcm.projectId, clientEmail: fcm.clientEmail });
      expect(creds?.privateKey.asymmetricKeyType).toBe('rsa');
      expect(fcmCredentials({})).toBeNull();
      expect(() => fcmCredentials({ FCM_PROJECT_ID: fcm.projectId })).toThrow(/client e-mail/);
      expect(() =>
        fcmCredentials({ FCM_PROJECT_ID: 'p', FCM_CLIENT_EMAIL: 'a@b', FCM_PRIVATE_KEY: 'not a key' }),
      ).toThrow(/PEM/);
      expect(() =>
        fcmCredentials({
          FCM_PROJECT_ID: 'a/../b',
          FCM_CLIENT_EMAIL: fcm.clientEmail,
          FCM_PRIVATE_KEY: fcm.privateKeyPem,
        }),
      ).toThrow(/project id/);
      expect(() => fcmCredentials({ FCM_SERVICE_ACCOUNT_FILE: '/nonexistent/sa.json' })).toThrow(
        /FCM_SERVICE_ACCOUNT_FILE/,
      );
    } finally {
      await fcm.close();
    }
  });

  it('waits as Retry-After says (seconds or a date), doubling when it says nothing, at most a minute', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryDelayMs('3', 0, now)).toBe(3000);
    expect(retryDelayMs('Tue, 01 Jan 2030 00:00:10 GMT', 0, now)).toBe(10_000);
    expect(retryDelayMs(undefined, 0, now)).toBe(1000);
    expect(retryDelayMs(undefined, 2, now)).toBe(4000);
    expect(retryDelayMs('86400', 0, now)).toBe(60_000);
  });
});
