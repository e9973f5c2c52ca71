// Workspace metrics through the real API and socket: who may see them, what a bad query gets, and that
// the figures follow what people do (posts, deletions, reactions, replies, visits) at once, without a
// rollup job in between. Exactness in time zones is tests/server/metrics-zones.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Channel,
  EngagingMessagesResponse,
  HourlyActivityHeatmapResponse,
  Message,
  MetricSettings,
  MetricStatsResponse,
  MostVisitedChannelsResponse,
  MostVisitedMembersResponse,
} from '../../schemas/protocol/index.ts';
import { emitAck } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { type Client, connect, disconnectAll, makeChannel, restPost } from './messaging-world.ts';
import { makeTeam, type Person, type Team } from './workspace-world.ts';

const ENDPOINTS = [
  'stats',
  'engaging-messages',
  'latest-channels',
  'growing-channels',
  'most-visited-channels',
  'most-visited-groups',
  'most-visited-members',
  'channel-creation-trend',
  'hourly-activity-heatmap',
  'settings',
];

describe.each(databases)('workspace metrics (%s)', (kind) => {
  let t: TestServer;
  let team: Team;
  const sockets = new Map<string, Client>();
  const metric = (path: string, ws = team.ws.id) => `/api/institutions/${ws}/metric/${path}`;

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
  }, 120_000);
  afterAll(async () => {
    disconnectAll();
    await t.close();
  });

  async function socketOf(p: Person): Promise<Client> {
    let s = sockets.get(p.memberId);
    if (!s) {
      s = await connect(t, p.token);
      sockets.set(p.memberId, s);
    }
    return s;
  }

  async function stats(): Promise<MetricStatsResponse> {
    const res = await team.admin.api.get<MetricStatsResponse>(metric('stats'));
    expect(res.status).toBe(200);
    return res.body;
  }

  it('answers owners and admins, and refuses members, guests, outsiders and other workspaces', async () => {
    for (const who of [team.primaryOwner, team.owner, team.admin])
      for (const path of ENDPOINTS) expect((await who.api.get(metric(path))).status, path).toBe(200);
    for (const path of ENDPOINTS) {
      for (const who of [team.member, team.guest, team.outsider])
        expect((await who.api.get(metric(path))).status, path).toBe(403);
      // The admin of another workspace asking for this one's figures.
      expect((await team.stranger.api.get(metric(path))).status, path).toBe(403);
      expect((await t.api().get(metric(path))).status, path).toBe(401);
    }
    const put = await team.member.api.put(metric('settings'), { memberMetricsEnabled: false });
    expect(put.status).toBe(403);
    expect((await team.admin.api.get<MetricSettings>(metric('settings'))).body.memberMetricsEnabled).toBe(
      true,
    );
  });

  it('refuses a bad query with a sentence, never a 500', async () => {
    const cases: [string, RegExp][] = [
      ['stats?timezone=Mars/Olympus', /IANA time zone/],
      ['stats?fromDate=yesterday', /fromDate must be a date and time/],
      ['stats?fromDate=2026-03-29T00:00:00', /fromDate must be a date and time/],
      ['hourly-activity-heatmap?fromDate=2026-03-30T00:00:00Z&toDate=2026-03-29T00:00:00Z', /before toDate/],
      ['engaging-messages?limit=51', /at most 50/],
      ['engaging-messages?page=0', /page starts at 1/],
      ['channel-creation-trend?period=year', /period/],
      ['channel-creation-trend?fromDate=1900-01-01T00:00:00Z&period=day', /shorter window/],
    ];
    for (const [path, message] of cases) {
      const res = await team.admin.api.get(metric(path));
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toMatch(message);
    }
    const bad = await team.admin.api.put(metric('settings'), { memberMetricsEnabled: 'no' });
    expect(bad.status).toBe(400);
    // A window from the year 1 is answered like "all" (nothing happened before the workspace began).
    const ancient = await team.admin.api.get<HourlyActivityHeatmapResponse>(
      metric('hourly-activity-heatmap?fromDate=0001-01-01T00:00:00Z&timezone=Asia/Kathmandu'),
    );
    expect(ancient.status).toBe(200);
    const all = await team.admin.api.get<HourlyActivityHeatmapResponse>(metric('hourly-activity-heatmap'));
    expect(ancient.body.total).toBe(all.body.total);
  });

  it('counts a posted message at once and forgets it when deleted', async () => {
    const before = await stats();
    const channel = await makeChannel(team.owner, team.ws);
    const posted = await restPost(team.owner, team.ws, channel.id, '<p>counted</p>');
    const after = await stats();
    expect(after.messages.total).toBe(before.messages.total + 1);
    expect(after.channels.total).toBe(before.channels.total + 1);
    const heat = await team.admin.api.get<HourlyActivityHeatmapResponse>(metric('hourly-activity-heatmap'));
    expect(heat.body.total).toBe(after.messages.total);

    const socket = await socketOf(team.owner);
    await emitAck(socket, 'deleteMessage', {
      institutionId: team.ws.id,
      channelId: channel.id,
      messageId: posted.id,
    });
    expect((await stats()).messages.total).toBe(before.messages.total);
  });

  async function react(p: Person, channel: Channel, m: Message, emoji: string) {
    await emitAck(await socketOf(p), 'toggleReaction', {
      institutionId: team.ws.id,
      channelId: channel.id,
      messageId: m.id,
      opId: randomUUID(),
      emoji,
      reacted: true,
    });
  }

  it('ranks engaging messages only from channels the admin may read', async () => {
    const open = await makeChannel(team.owner, team.ws);
    const secret = await makeChannel(team.owner, team.ws, 'private');
    const mine = await makeChannel(team.admin, team.ws, 'private');
    const popular = await restPost(team.owner, team.ws, open.id, '<p>the popular one</p>');
    const hidden = await restPost(team.owner, team.ws, secret.id, '<p>salary bands for 2027</p>');
    const own = await restPost(team.admin, team.ws, mine.id, '<p>admin private note</p>');
    await react(team.owner, open, popular, '🎉');
    await react(team.owner, open, popular, '👀');
    await react(team.owner, secret, hidden, '👍');
    await react(team.admin, mine, own, '👍');
    await team.owner.api.post(`/api/institutions/${team.ws.id}/channels/${open.id}/messages`, {
      content: '<p>a reply</p>',
      genId: randomUUID(),
      replyTo: popular.id,
    });

    const res = await team.admin.api.get<EngagingMessagesResponse>(metric('engaging-messages'));
    expect(res.status).toBe(200);
    const top = res.body.data.find((m) => m.messageId === popular.id);
    expect(top).toMatchObject({
      reactions: 2,
      replies: 1,
      pollVotes: 0,
      score: 3,
      excerpt: 'the popular one',
    });
    expect(res.body.data.some((m) => m.messageId === own.id)).toBe(true);
    expect(res.body.data.some((m) => m.channelId === secret.id)).toBe(false);
    expect(JSON.stringify(res.body)).not.toContain('salary');
    // The owner, who is in the private channel, sees it.
    const owners = await team.owner.api.get<EngagingMessagesResponse>(metric('engaging-messages'));
    expect(owners.body.data.some((m) => m.messageId === hidden.id)).toBe(true);

    // A deleted message leaves the ranking.
    await emitAck(await socketOf(team.owner), 'deleteMessage', {
      institutionId: team.ws.id,
      channelId: open.id,
      messageId: popular.id,
    });
    const later = await team.admin.api.get<EngagingMessagesResponse>(metric('engaging-messages'));
    expect(later.body.data.some((m) => m.messageId === popular.id)).toBe(false);
  });

  it('counts a visit once per person and channel in 30 minutes', async () => {
    const channel = await makeChannel(team.owner, team.ws);
    const visit = async (p: Person) =>
      emitAck(await socketOf(p), 'visitChannel', { institutionId: team.ws.id, channelId: channel.id });
    await visit(team.member);
    await visit(team.member);
    await visit(team.guest);
    const res = await team.admin.api.get<MostVisitedChannelsResponse>(metric('most-visited-channels'));
    expect(res.body.data.find((r) => r.id === channel.id)).toMatchObject({ visitors: 2, visits: 2 });
  });

  it('names members only with five visitors or more, and not at all when the workspace turns it off', async () => {
    const people = [team.primaryOwner, team.owner, team.admin, team.member, team.guest];
    const visitMember = async (p: Person, target: Person) =>
      emitAck(await socketOf(p), 'visitMember', { institutionId: team.ws.id, memberId: target.memberId });
    for (const p of people.slice(0, 4)) await visitMember(p, team.guest);
    for (const p of people) await visitMember(p, team.member);
    const url = metric('most-visited-members');
    const res = await team.admin.api.get<MostVisitedMembersResponse>(url);
    expect(res.body).toMatchObject({ memberMetricsEnabled: true, minimumVisitors: 5 });
    expect(res.body.data.map((r) => r.id)).toEqual([team.member.memberId]);
    expect(res.body.data[0]).toMatchObject({ visitors: 5, visits: 5 });

    const off = await team.owner.api.put<MetricSettings>(metric('settings'), { memberMetricsEnabled: false });
    expect(off.body.memberMetricsEnabled).toBe(false);
    const hidden = await team.admin.api.get<MostVisitedMembersResponse>(url);
    expect(hidden.body).toMatchObject({ memberMetricsEnabled: false, data: [] });
    await team.owner.api.put(metric('settings'), { memberMetricsEnabled: true });
    expect((await team.admin.api.get<MostVisitedMembersResponse>(url)).body.data).toHaveLength(1);
  });
});
