// Channel membership: listing, adding and removing people (with live refresh and channel rooms), the
// caller's own mute setting, private channels hidden from outsiders, DM blocking, profile channels.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, ChannelMember, Message } from '../../schemas/protocol/index.ts';
import { profileChannelsOf } from '../../server/channels/profile-channels.ts';
import {
  channelsUrl,
  channelUrl,
  channelWith,
  joined,
  makeTeam,
  membersOf,
  record,
  restPostRaw,
} from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { collect, connect, disconnectAll, eventually } from './messaging-world.ts';

describe.each(databases)('channel membership on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t?.close();
  });

  it('lists the channel’s people with their roles and online state', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    await connect(t, member.token);
    const people = await membersOf(owner, ws, channel);
    expect(people.map((p) => p.member.id).sort()).toEqual([owner.memberId, member.memberId].sort());
    const mine = people.find((p) => p.member.id === member.memberId);
    expect(mine?.channelMember).toMatchObject({ channelId: channel.id, roles: [], muted: false });
    expect(mine?.member.user.isOnline).toBe(true);
    expect(people.find((p) => p.member.id === owner.memberId)?.channelMember.roles).toHaveLength(1);
  });

  it('adds people, who hear of it and receive the channel’s messages live', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private');
    const socket = await connect(t, member.token);
    const refreshes = record<{ value: string }>(socket, 'refresh');
    const live = collect(socket, 'newMessage');

    const added = await owner.api.post<{ data: { member: { id: string } }[] }>(
      `${channelUrl(ws, channel)}/members/add`,
      { members: [member.memberId] },
    );
    expect(added.status).toBe(200);
    expect(added.body.data.map((e) => e.member.id)).toEqual([member.memberId]);
    await eventually(() => refreshes.some((r) => r.value === 'joinedChannels'));
    expect((await joined(member, ws)).channels.map((c) => c.id)).toContain(channel.id);
    const posted = (await restPostRaw(owner, ws, channel)).body as Message;
    await eventually(() => live.some((m) => m.id === posted.id));
  });

  it('refuses to add people from outside the workspace or by someone without canAddMembers', async () => {
    const { ws, primaryOwner: owner, member, guest, foreigner } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    const url = `${channelUrl(ws, channel)}/members/add`;
    const foreign = await owner.api.post(url, { members: [foreigner.memberId] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('Only members of this workspace can be added');
    const none = await owner.api.post(url, { members: [] });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Name at least one member');
    const notAllowed = await member.api.post(url, { members: [guest.memberId] });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body.message).toBe('You cannot add members to this channel');
  });

  it('removes people (managers only), takes them out of the room, and keeps the last owner', async () => {
    const { ws, primaryOwner: owner, member, guest } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private', [member, guest]);
    const socket = await connect(t, member.token);
    await socket.timeout(5000).emitWithAck('joinChannel', { institutionId: ws.id, channelId: channel.id });
    const live = collect(socket, 'newMessage');
    const url = `${channelUrl(ws, channel)}/members/remove`;

    const byMember = await member.api.delete(url, { members: [guest.memberId] });
    expect(byMember.status).toBe(403);
    expect((await owner.api.delete(url, { members: [member.memberId] })).status).toBe(200);
    expect((await membersOf(owner, ws, channel)).map((p) => p.member.id)).not.toContain(member.memberId);
    await restPostRaw(owner, ws, channel);
    await new Promise((r) => setTimeout(r, 200));
    expect(live).toEqual([]);
    const lastOwner = await owner.api.delete(url, { members: [owner.memberId] });
    expect(lastOwner.status).toBe(400);
    expect(lastOwner.body.message).toBe('The channel would have no owner: transfer ownership first');
  });

  it('keeps the only owner from leaving people behind without an owner, until ownership moves', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    const leave = `${channelUrl(ws, channel)}/members`;

    const refused = await owner.api.delete(leave);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("You are this channel's only owner: transfer ownership before leaving");
    expect((await membersOf(owner, ws, channel)).map((p) => p.member.id)).toContain(owner.memberId);

    const moved = await owner.api.put(`${channelUrl(ws, channel)}/transfer-ownership`, {
      member: member.memberId,
    });
    expect(moved.status).toBe(200);
    expect((await owner.api.delete(leave)).status).toBe(200);
    expect((await membersOf(member, ws, channel)).map((p) => p.member.id)).toEqual([member.memberId]);
  });

  it('lets the only owner leave a channel nobody else is in', async () => {
    const { ws, primaryOwner: owner } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public');
    expect((await owner.api.delete(`${channelUrl(ws, channel)}/members`)).status).toBe(200);
  });

  it('keeps each person’s own settings, such as muting, to themselves', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    const url = `${channelUrl(ws, channel)}/members`;
    const muted = await member.api.put<{ channelMember: ChannelMember }>(url, { muted: true });
    expect(muted.status).toBe(200);
    expect(muted.body.channelMember).toMatchObject({ memberId: member.memberId, muted: true });
    const ownerRow = (await joined(owner, ws)).channelMembers.find((m) => m.channelId === channel.id);
    expect(ownerRow?.muted).toBe(false);
    const empty = await member.api.put(url, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Nothing to update');
  });

  it('hides a private channel from people outside it, but not from workspace admins', async () => {
    const { ws, primaryOwner: owner, member, admin, foreigner } = await makeTeam(t);
    const channel = await channelWith(member, ws, 'private');
    const listed = async (who: typeof owner) =>
      (await who.api.get<{ data: Channel[] }>(channelsUrl(ws))).body.data.map((c) => c.id);
    expect(await listed(owner)).not.toContain(channel.id);
    expect(await listed(member)).toContain(channel.id);
    const peek = await owner.api.get(`${channelUrl(ws, channel)}/members`);
    expect(peek.status).toBe(200); // primary owner is a workspace admin
    const foreignPeek = await foreigner.api.get(`${channelUrl(ws, channel)}/members`);
    expect(foreignPeek.status).toBe(403);
    const other = await channelWith(owner, ws, 'private');
    const byMember = await member.api.get(`${channelUrl(ws, other)}/members`);
    expect(byMember.status).toBe(404);
    expect((await admin.api.get(`${channelUrl(ws, other)}/roles`)).status).toBe(200);
  });

  it('lets one side of a direct message block the other, whose posts are then refused', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const dm = (
      await owner.api.post<{ channel: Channel }>(`${channelsUrl(ws)}/direct_messages`, {
        directMessageMemberId: member.memberId,
      })
    ).body.channel;
    const blocked = await owner.api.put<{ channelMember: ChannelMember }>(`${channelUrl(ws, dm)}/block`);
    expect(blocked.body.channelMember.blocked).toBe(true);
    const refused = await restPostRaw(member, ws, dm);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You cannot message this person');
    expect((await restPostRaw(owner, ws, dm)).status).toBe(201);
    await owner.api.put(`${channelUrl(ws, dm)}/unblock`);
    expect((await restPostRaw(member, ws, dm)).status).toBe(201);
    const general = await owner.api.put(`${channelUrl(ws, ws.general)}/block`);
    expect(general.status).toBe(400);
    expect(general.body.message).toBe('Only a direct message can be blocked');
  });

  it('shows chosen channels on a profile, private ones only to people who are in them', async () => {
    const { ws, primaryOwner: owner, member, guest } = await makeTeam(t);
    const open = await channelWith(member, ws, 'public');
    const secret = await channelWith(member, ws, 'private', [owner]);
    const url = `${channelsUrl(ws)}/profile-channels`;
    const set = await member.api.put<{ channels: string[] }>(url, { channels: [open.id, secret.id] });
    expect(set.status).toBe(200);
    expect(
      (await joined(member, ws)).channelMembers.filter((m) => m.showOnProfile).map((m) => m.channelId),
    ).toEqual(expect.arrayContaining([open.id, secret.id]));
    const seenBy = async (viewer: string) =>
      (await profileChannelsOf(t.ctx.db, member.memberId, viewer)).map((c) => c.id).sort();
    expect(await seenBy(owner.memberId)).toEqual([open.id, secret.id].sort());
    expect(await seenBy(guest.memberId)).toEqual([open.id]);
    const notMine = await guest.api.put(url, { channels: [secret.id] });
    expect(notMine.status).toBe(400);
    expect(notMine.body.message).toBe('Only channels you are a member of can be shown on your profile');
  });
});
