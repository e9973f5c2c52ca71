// Web Push end to end on the server: a browser's subscription stored for its session, a teammate's message
// reaching a local HTTPS push service (VAPID JWT checked, payload decrypted) with the spec's fields, and the
// rules a person notices: no push for plain channel chatter, for their own messages, while they read the
// channel on another device, when muted or in Do-not-disturb; a 410 or signing out ends the subscription.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Agent,
  Channel,
  Mention,
  Message,
  PushConfigResponse,
  PushPreferencesResponse,
} from '../../schemas/protocol/index.ts';
import { pushSubscriptions, sessionActivity } from '../../server/db/schema.ts';
import { type PushService, startPushService } from '../support/push-service.ts';
import { channelsUrl, channelWith, emitAck, makeTeam, type Person, type Team } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll, messagesUrl } from './messaging-world.ts';

describe.each(databases)('web push on %s', (kind) => {
  let t: TestServer;
  let push: PushService;
  let team: Team;
  let room: Channel;

  beforeAll(async () => {
    push = await startPushService();
    t = await startTestServer(kind, {
      env: {
        PUSH_ALLOW_PRIVATE: 'true',
        PUSH_CA_FILE: push.caFile,
        PUSH_VAPID_SUBJECT: 'mailto:ops@example.com',
        // People sign in again for a second device; the per-address code limit is not what is tested here.
        OTP_PER_EMAIL_IP_PER_HOUR: '100',
      },
    });
    team = await makeTeam(t);
    room = await channelWith(team.primaryOwner, team.ws, 'public', [team.member, team.admin]);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
    await push?.close();
  });

  /** Subscribes this person's session (as their browser would) and returns the push service's id for it. */
  async function subscribe(who: Pick<Person, 'api'>, isPwa = false): Promise<string> {
    const { id, subscription } = push.subscribe();
    const res = await who.api.put('/api/users/sessions/fcm-token', { fcmToken: subscription, isPwa });
    expect(res.status).toBe(200);
    return id;
  }
  async function post(by: Person, channel: Channel, body: { content?: string; mentions?: Mention[] } = {}) {
    const res = await by.api.post<Message>(messagesUrl(team.ws, channel.id), {
      content: '<p>hello</p>',
      genId: randomUUID(),
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const mention = (p: Person): Mention[] => [{ type: 'member', id: p.memberId }];
  const pushesOf = (messageId: string) =>
    push.received.filter((p) => (p.payload as { messageId: string }).messageId === messageId);
  /** A marker push that must arrive: by then every push of the messages posted before it was sent. */
  async function marker(to: Person, subId: string) {
    const m = await post(team.admin, room, { mentions: mention(to) });
    await push.waitFor(
      (p) => p.subscriptionId === subId && (p.payload as { messageId: string }).messageId === m.id,
    );
  }

  /**
   * Posts a mention of `who` and of the admin, a witness subscribed as `witness`, and waits for the witness's
   * push: by then the message's decision was made (it is made once for everyone), so the test may change
   * what the next decision sees.
   */
  async function postDecided(who: Person, witness: string) {
    const m = await post(team.primaryOwner, room, { mentions: [...mention(who), ...mention(team.admin)] });
    await push.waitFor(
      (p) => p.subscriptionId === witness && (p.payload as { messageId: string }).messageId === m.id,
    );
    return m;
  }
  const sentTo = (messageId: string) => pushesOf(messageId).map((p) => p.subscriptionId);

  it('serves the VAPID public key, and a mention reaches the push service signed with it, with the spec fields', async () => {
    const config = await team.member.api.get<PushConfigResponse>('/api/push/config');
    expect(config.status).toBe(200);
    expect(Buffer.from(config.body.vapidKey, 'base64url')).toHaveLength(65);
    expect(config.body.idOnly).toBe(false);

    const subId = await subscribe(team.member);
    const sent = await post(team.primaryOwner, room, {
      content: '<p>Lunch at <b>noon</b> &amp; bring cake</p>',
      mentions: mention(team.member),
    });
    const got = await push.waitFor((p) => p.subscriptionId === subId);
    expect(got.payload).toEqual({
      title: `${team.primaryOwner.user.name} in #${room.name}`,
      body: 'Lunch at noon & bring cake',
      channelId: room.id,
      clientId: team.ws.id,
      messageId: sent.id,
      isPwa: false,
      requiresRefresh: false,
      idOnly: false,
      // Exact totals are asserted in push-fcm.test.ts.
      unreadCount: expect.any(Number),
    });
    expect(got.vapidKey).toBe(config.body.vapidKey);
    expect(got.claims.sub).toBe('mailto:ops@example.com');
    expect(got.urgency).toBe('high');
    expect(got.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(Number(got.ttl)).toBeGreaterThan(0);
  });

  it('pushes a direct message, not plain channel chatter nor the author’s own message', async () => {
    const adminSub = await subscribe(team.admin);
    const memberSub = await subscribe(team.member);
    const chatter = await post(team.primaryOwner, room);
    const own = await post(team.admin, room, { mentions: mention(team.admin) });
    const dmRes = await team.primaryOwner.api.post<{ channel: Channel }>(
      `${channelsUrl(team.ws)}/direct_messages`,
      { directMessageMemberId: team.admin.memberId },
    );
    const dm = dmRes.body.channel;
    const direct = await post(team.primaryOwner, dm, { content: '<p>got a minute?</p>' });
    const got = await push.waitFor((p) => (p.payload as { messageId: string }).messageId === direct.id);
    expect(got.subscriptionId).toBe(adminSub);
    expect(got.payload).toMatchObject({
      title: team.primaryOwner.user.name,
      body: 'got a minute?',
      channelId: dm.id,
    });
    await marker(team.member, memberSub);
    expect(pushesOf(chatter.id)).toEqual([]);
    expect(pushesOf(own.id)).toEqual([]);
  });

  it('holds the push while the person reads that channel on another device, not while they are elsewhere', async () => {
    const subId = await subscribe(team.member);
    const witness = await subscribe(team.admin);
    // A second device of the same person, looking at the room.
    const phone = await t.signUp(team.member.user.email);
    expect((await phone.api.put('/api/users/sessions/ping', { channelId: room.id })).status).toBe(200);
    const whileReading = await postDecided(team.member, witness);
    // The same device moves to another channel: the room is no longer being read.
    await phone.api.put('/api/users/sessions/ping', { channelId: team.ws.general.id });
    const whileElsewhere = await post(team.primaryOwner, room, { mentions: mention(team.member) });
    await push.waitFor((p) => (p.payload as { messageId: string }).messageId === whileElsewhere.id);
    await marker(team.member, subId);
    expect(sentTo(whileReading.id)).toEqual([witness]);
  });

  it('holds the push while a device has the channel open over the socket, until 20 s have passed', async () => {
    const subId = await subscribe(team.member);
    const witness = await subscribe(team.admin);
    const tablet = await t.signUp(team.member.user.email);
    const socket = await connect(t, tablet.token);
    await emitAck(socket, 'visitChannel', { institutionId: team.ws.id, channelId: room.id });
    const whileOpen = await postDecided(team.member, witness);
    await emitAck(socket, 'resetUnreadCount', { institutionId: team.ws.id, channelId: room.id });
    const whileMarkingRead = await postDecided(team.member, witness);
    // The tablet is left on the table: its socket stays open, but 21 s later it is no longer "reading".
    await t.ctx.db
      .update(sessionActivity)
      .set({ activeAt: new Date(Date.now() - 21_000) })
      .where(eq(sessionActivity.userId, team.member.user.id));
    const idle = await post(team.primaryOwner, room, { mentions: mention(team.member) });
    await push.waitFor(
      (p) => p.subscriptionId === subId && (p.payload as { messageId: string }).messageId === idle.id,
    );
    expect(sentTo(whileOpen.id)).toEqual([witness]);
    expect(sentTo(whileMarkingRead.id)).toEqual([witness]);
    socket.disconnect();
  });

  it('sends nothing from a channel set to nothing, or during Do-not-disturb', async () => {
    const subId = await subscribe(team.member);
    const witness = await subscribe(team.admin);
    const level = await team.member.api.put(`${channelsUrl(team.ws)}/${room.id}/push-level`, {
      level: 'nothing',
    });
    expect(level.status).toBe(200);
    const muted = await postDecided(team.member, witness);
    await team.member.api.put(`${channelsUrl(team.ws)}/${room.id}/push-level`, { level: 'mentions' });

    const until = new Date(Date.now() + 60 * 60_000).toISOString();
    expect((await team.member.api.put('/api/users/push-settings', { dndUntil: until })).status).toBe(200);
    const duringDnd = await postDecided(team.member, witness);
    await team.member.api.put('/api/users/push-settings', { dndUntil: null });

    await marker(team.member, subId);
    expect(sentTo(muted.id)).toEqual([witness]);
    expect(sentTo(duringDnd.id)).toEqual([witness]);
  });

  it('shows a person’s levels and Do-not-disturb on a device they sign in on later, and only to them', async () => {
    await team.admin.api.put(`${channelsUrl(team.ws)}/${room.id}/push-level`, { level: 'all' });
    const until = new Date(Date.now() + 2 * 60 * 60_000);
    await team.admin.api.put('/api/users/push-settings', { dndUntil: until.toISOString() });
    const laptop = await t.signUp(team.admin.user.email);
    const read = await laptop.api.get<PushPreferencesResponse>('/api/users/push-settings');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      dndUntil: until.toISOString(),
      levels: [{ channelId: room.id, level: 'all' }],
    });
    // Someone else reads their own (nothing set), never the admin's.
    const other = await team.guest.api.get<PushPreferencesResponse>('/api/users/push-settings');
    expect(other.body).toEqual({ dndUntil: null, levels: [] });
    // A Do-not-disturb that has run out reads as off.
    await team.admin.api.put('/api/users/push-settings', { dndUntil: '2020-01-01T00:00:00Z' });
    expect(
      (await laptop.api.get<PushPreferencesResponse>('/api/users/push-settings')).body.dndUntil,
    ).toBeNull();
    await team.admin.api.put(`${channelsUrl(team.ws)}/${room.id}/push-level`, { level: 'mentions' });
  });

  it('pushes an agent’s answer to the person who asked once, when it is complete, with its final text', async () => {
    const subId = await subscribe(team.member);
    const created = await team.primaryOwner.api.post<{ agent: Agent }>(
      `/api/institutions/${team.ws.id}/agents`,
      {
        name: 'Concierge',
      },
    );
    const agent = created.body.agent;
    await team.primaryOwner.api.post(`/api/institutions/${team.ws.id}/agents/${agent.id}/knowledge-sources`, {
      type: 'text',
      title: 'Parking',
      text: 'Visitors park on level two of the garage.',
    });
    await post(team.member, team.ws.general, {
      content: `<p><span data-type="mention" data-id="${agent.id}" class="mention">@Concierge</span> where do visitors park?</p>`,
      mentions: [{ type: 'agent', id: agent.id }],
    });
    const answer = await push.waitFor(
      (p) => p.subscriptionId === subId && (p.payload as { title: string }).title === 'Concierge in #general',
      15_000,
    );
    // The answer was written as "Thinking…" and then edited: the push carries the finished text only.
    expect((answer.payload as { body: string }).body).toContain('Visitors park on level two of the garage.');
    await marker(team.member, subId);
    expect(pushesOf((answer.payload as { messageId: string }).messageId)).toHaveLength(1);
  });

  it('refuses a push level for a channel the caller is not in', async () => {
    const res = await team.guest.api.put(`${channelsUrl(team.ws)}/${room.id}/push-level`, { level: 'all' });
    expect(res.status).toBe(403);
  });

  it('deletes the subscription when the push service answers 410', async () => {
    const person = await t.signUp(team.member.user.email);
    const subId = await subscribe(person);
    push.answerWith(subId, 410);
    await post(team.primaryOwner, room, { mentions: mention(team.member) });
    const deadline = Date.now() + 5_000;
    let rows = 1;
    while (rows > 0 && Date.now() < deadline) {
      rows = (
        await t.ctx.db
          .select()
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.endpoint, `${push.origin}/push/${subId}`))
      ).length;
      if (rows > 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows).toBe(0);
  });

  it('ends the subscription with the session: signed out, nothing more reaches that browser', async () => {
    const laptop = await t.signUp(team.member.user.email);
    const subId = await subscribe(laptop);
    expect((await laptop.api.put('/api/users/logout')).status).toBe(200);
    const stored = await t.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, `${push.origin}/push/${subId}`));
    expect(stored).toEqual([]);
    const after = await post(team.primaryOwner, room, { mentions: mention(team.member) });
    await marker(team.member, await subscribe(team.member));
    expect(pushesOf(after.id).filter((p) => p.subscriptionId === subId)).toEqual([]);
  });

  it('gives a browser’s endpoint to the last person who subscribed on it', async () => {
    // Ana's session on a shared computer was never signed out; the member signs in there next.
    const shared = push.subscribe();
    const earlier = await t.signUp(team.admin.user.email);
    await earlier.api.put('/api/users/sessions/fcm-token', { fcmToken: shared.subscription });
    const later = await t.signUp(team.member.user.email);
    await later.api.put('/api/users/sessions/fcm-token', { fcmToken: shared.subscription });
    const toAdmin = await post(team.primaryOwner, room, {
      content: '<p>for the admin only</p>',
      mentions: mention(team.admin),
    });
    const memberSub = await subscribe(team.member);
    await marker(team.member, memberSub);
    expect(sentTo(toAdmin.id).filter((id) => id === shared.id)).toEqual([]);
    const rows = await t.ctx.db
      .select({ userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, shared.subscription.endpoint));
    expect(rows).toEqual([{ userId: team.member.user.id }]);
  });

  it('refuses malformed subscriptions and Firebase tokens with a sentence', async () => {
    const { subscription } = push.subscribe();
    const cases: unknown[] = [
      { fcmToken: { ...subscription, endpoint: subscription.endpoint.replace('https:', 'http:') } },
      { fcmToken: { ...subscription, keys: { ...subscription.keys, p256dh: 'AAAA' } } },
      { fcmToken: { ...subscription, keys: { ...subscription.keys, auth: 'x'.repeat(5000) } } },
      { fcmToken: { ...subscription, endpoint: `https://example.com/${'a'.repeat(3000)}` } },
      { fcmToken: 'a-firebase-token' },
      {},
    ];
    for (const body of cases) {
      const res = await team.member.api.put('/api/users/sessions/fcm-token', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.message).toMatch(/\w+ \w+/);
    }
  });
});

describe('web push endpoints without the operator setting', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses loopback, private and metadata endpoints a browser could name', async () => {
    const me = await t.signUp();
    const keys = {
      p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url'),
      auth: Buffer.alloc(16, 2).toString('base64url'),
    };
    for (const endpoint of [
      'https://127.0.0.1:8443/push/x',
      'https://localhost/push',
      'https://10.1.2.3/p',
      'https://169.254.169.254/latest',
      'https://[::1]/p',
    ]) {
      const res = await me.api.put('/api/users/sessions/fcm-token', { fcmToken: { endpoint, keys } });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.message).toMatch(/push endpoint cannot be used/);
    }
    const ok = await me.api.put('/api/users/sessions/fcm-token', {
      fcmToken: { endpoint: 'https://push.example.com/p/1', keys },
    });
    expect(ok.status).toBe(200);
  });
});
