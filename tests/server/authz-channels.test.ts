// Authorization matrix for the channel role, membership and request routes: every route × every kind of
// caller, with the status each must get. The channel is private, made by the primary owner (so they hold
// its owner role), with the member and the guest in it on the default role; the admin is not in it. A
// workspace admin sees a private channel's roles and members but manages nothing in it: spec §6 leaves
// managing to the channel's ownership roles (decision 0080).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, ChannelRequest, ChannelRole } from '../../schemas/protocol/index.ts';
import { channelsUrl, channelUrl, channelWith, makeTeam, type Team } from './channel-world.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';

const ACTORS = ['primary_owner', 'admin', 'member', 'guest', 'non-member', 'other workspace'] as const;
type Actor = (typeof ACTORS)[number];

interface Cell {
  team: Team;
  channel: Channel;
  /** An extra role with no holders. */
  role: ChannelRole;
  /** A pending request by the admin (the one person not in the channel). */
  request: ChannelRequest;
  /** The direct message between the primary owner and the member. */
  dm: Channel;
}

type Call = (who: TestUser, c: Cell) => Promise<{ status: number }>;

//            route                                  primary_owner admin member guest non-member other-ws
const MATRIX: [string, Call, [number, number, number, number, number, number]][] = [
  ['GET roles', (w, c) => w.api.get(`${url(c)}/roles`), [200, 200, 200, 200, 403, 403]],
  ['POST roles', (w, c) => w.api.post(`${url(c)}/roles`, { name: 'new' }), [201, 403, 403, 403, 403, 403]],
  [
    'PUT roles/:roleId (the default role)',
    (w, c) => w.api.put(`${url(c)}/roles/${c.channel.defaultRole?.id}`, { canTag: false }),
    [200, 403, 403, 403, 403, 403],
  ],
  [
    'DELETE roles/:roleId',
    (w, c) => w.api.delete(`${url(c)}/roles/${c.role.id}`),
    [200, 403, 403, 403, 403, 403],
  ],
  [
    'PUT roles/:roleId/members',
    (w, c) => w.api.put(`${url(c)}/roles/${c.role.id}/members`, { members: [c.team.member.memberId] }),
    [200, 403, 403, 403, 403, 403],
  ],
  [
    'PUT transfer-ownership',
    (w, c) => w.api.put(`${url(c)}/transfer-ownership`, { member: c.team.member.memberId }),
    [200, 403, 403, 403, 403, 403],
  ],
  ['GET members', (w, c) => w.api.get(`${url(c)}/members`), [200, 200, 200, 200, 403, 403]],
  [
    'POST members/add',
    (w, c) => w.api.post(`${url(c)}/members/add`, { members: [c.team.admin.memberId] }),
    [200, 403, 403, 403, 403, 403],
  ],
  [
    'DELETE members/remove',
    (w, c) => w.api.delete(`${url(c)}/members/remove`, { members: [c.team.guest.memberId] }),
    [200, 403, 403, 403, 403, 403],
  ],
  // The admin is not in the private channel, so it is not found for their own settings.
  [
    'PUT members (own settings)',
    (w, c) => w.api.put(`${url(c)}/members`, { muted: true }),
    [200, 404, 200, 200, 403, 403],
  ],
  [
    'PUT block (DM)',
    (w, c) => w.api.put(`${channelUrl(c.team.ws, c.dm)}/block`),
    [200, 404, 200, 404, 403, 403],
  ],
  [
    'PUT unblock (DM)',
    (w, c) => w.api.put(`${channelUrl(c.team.ws, c.dm)}/unblock`),
    [200, 404, 200, 404, 403, 403],
  ],
  [
    'PUT profile-channels',
    (w, c) => w.api.put(`${channelsUrl(c.team.ws)}/profile-channels`, { channels: [] }),
    [200, 200, 200, 200, 403, 403],
  ],
  // Members are in the channel already (400); the admin is not, and asked already while the cell was set up (409).
  [
    'POST requests',
    (w, c) => w.api.post(`${url(c)}/requests`, { reason: 'hi' }),
    [400, 409, 400, 400, 403, 403],
  ],
  ['GET requests', (w, c) => w.api.get(`${url(c)}/requests`), [200, 403, 403, 403, 403, 403]],
  [
    'PUT requests/:requestId',
    (w, c) => w.api.put(`${url(c)}/requests/${c.request.id}`, { status: 'approved' }),
    [200, 403, 403, 403, 403, 403],
  ],
  [
    'GET requests/mine',
    (w, c) => w.api.get(`${channelsUrl(c.team.ws)}/requests/mine`),
    [200, 200, 200, 200, 403, 403],
  ],
];

function url(c: Cell) {
  return channelUrl(c.team.ws, c.channel);
}

function caller(team: Team, actor: Actor): TestUser {
  const by: Record<Actor, TestUser> = {
    primary_owner: team.primaryOwner,
    admin: team.admin,
    member: team.member,
    guest: team.guest,
    'non-member': team.outsider,
    'other workspace': team.foreigner,
  };
  return by[actor];
}

describe.each(databases)('channel routes authorization on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh private channel (and role, request, DM) for every cell, so no call sees another's effects. */
  async function cell(): Promise<Cell> {
    const { ws, primaryOwner, admin, member, guest } = team;
    const channel = await channelWith(primaryOwner, ws, 'private', [member, guest]);
    const role = await primaryOwner.api.post<{ role: ChannelRole }>(`${channelUrl(ws, channel)}/roles`, {
      name: 'extra',
    });
    const request = await admin.api.post<{ request: ChannelRequest }>(`${channelUrl(ws, channel)}/requests`, {
      reason: 'let me in',
    });
    const dm = await primaryOwner.api.post<{ channel: Channel }>(`${channelsUrl(ws)}/direct_messages`, {
      directMessageMemberId: member.memberId,
    });
    return { team, channel, role: role.body.role, request: request.body.request, dm: dm.body.channel };
  }

  it.each(MATRIX)('%s answers each kind of caller as the table says', async (_route, call, statuses) => {
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const [i, actor] of ACTORS.entries()) {
      const res = await call(caller(team, actor), await cell());
      got[actor] = res.status;
      want[actor] = statuses[i] as number;
    }
    expect(got).toEqual(want);
  });

  it('never answers with data for ids of another workspace', async () => {
    const c = await cell();
    const { foreigner, foreignWs, primaryOwner } = team;
    // The foreigner's own workspace id with this workspace's channel: not found, nothing leaks.
    const crossed = `${channelsUrl(foreignWs)}/${c.channel.id}`;
    for (const path of ['roles', 'members', 'requests']) {
      const res = await foreigner.api.get<{ data?: unknown }>(`${crossed}/${path}`);
      expect(res.status).toBe(404);
      expect(res.body.data).toBeUndefined();
    }
    const foreignChannel = await channelWith(foreigner, foreignWs, 'public');
    const theirs = `${channelsUrl(team.ws)}/${foreignChannel.id}`;
    expect((await primaryOwner.api.get(`${theirs}/members`)).status).toBe(404);
    expect(
      (await primaryOwner.api.post(`${theirs}/members/add`, { members: [foreigner.memberId] })).status,
    ).toBe(404);
    const foreignRole = foreignChannel.defaultRole?.id;
    expect((await primaryOwner.api.put(`${url(c)}/roles/${foreignRole}`, { canTag: true })).status).toBe(404);
  });
});
