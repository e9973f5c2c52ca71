// Channel roles: what owners see and change, and that the server enforces what the roles allow
// (posting, mentioning, deleting others' messages) on REST and on the socket.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRole, Message } from '../../schemas/protocol/index.ts';
import {
  channelUrl,
  channelWith,
  emitAck,
  joined,
  makeTeam,
  membersOf,
  record,
  restPostRaw,
  roleNamed,
  rolesOf,
} from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll, eventually } from './messaging-world.ts';

describe.each(databases)('channel roles on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t?.close();
  });

  it('lists a new channel’s default role and owner role, and lets the owner add one', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private', [member]);
    const roles = await rolesOf(member, ws, channel);
    expect(roles.map((r) => [r.name, r.isDefault, r.isOwnershipRole])).toEqual([
      ['member', true, false],
      ['owner', false, true],
    ]);
    const created = await owner.api.post<{ role: ChannelRole }>(`${channelUrl(ws, channel)}/roles`, {
      name: 'Moderators',
      canDeleteMessage: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.role).toMatchObject({
      name: 'Moderators',
      isDefault: false,
      isOwnershipRole: false,
      canDeleteMessage: true,
      canPost: false,
      canTag: false,
    });
    expect((await rolesOf(owner, ws, channel)).map((r) => r.name)).toEqual(['member', 'owner', 'Moderators']);
  });

  it('refuses bad role input with a message', async () => {
    const { ws, primaryOwner: owner } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public');
    const url = `${channelUrl(ws, channel)}/roles`;
    const empty = await owner.api.post(url, { name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Name cannot be empty');
    const flag = await owner.api.post(url, { name: 'x', canPost: 'yes' });
    expect(flag.status).toBe(400);
    expect(flag.body.message).toBe('The post permission should be true or false.');
    const dup = await owner.api.post(url, { name: 'OWNER' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A role with this name already exists');
    const defaultRole = await roleNamed(owner, ws, channel, 'member');
    const nothing = await owner.api.put(`${url}/${defaultRole.id}`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe('Nothing to update');
  });

  it('never deletes the default role or the owner role, and deletes others', async () => {
    const { ws, primaryOwner: owner } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public');
    const url = `${channelUrl(ws, channel)}/roles`;
    const defaultRole = await roleNamed(owner, ws, channel, 'member');
    const ownerRole = await roleNamed(owner, ws, channel, 'owner');
    expect((await owner.api.delete(`${url}/${defaultRole.id}`)).body.message).toBe(
      'The default role cannot be deleted',
    );
    expect((await owner.api.delete(`${url}/${ownerRole.id}`)).body.message).toBe(
      'The owner role cannot be deleted',
    );
    const extra = await owner.api.post<{ role: ChannelRole }>(url, { name: 'temp' });
    expect((await owner.api.delete(`${url}/${extra.body.role.id}`)).status).toBe(200);
    expect((await rolesOf(owner, ws, channel)).map((r) => r.name)).toEqual(['member', 'owner']);
  });

  it('stops a member from posting once the default role loses canPost, until a role gives it back', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private', [member]);
    const url = `${channelUrl(ws, channel)}/roles`;
    const defaultRole = await roleNamed(owner, ws, channel, 'member');
    const socket = await connect(t, member.token);
    const refreshes = record<{ value: string }>(socket, 'refresh');

    const edited = await owner.api.put<{ role: ChannelRole }>(`${url}/${defaultRole.id}`, { canPost: false });
    expect(edited.body.role.canPost).toBe(false);
    await eventually(() => refreshes.some((r) => r.value === 'joinedChannels'));
    expect((await joined(member, ws)).channels.find((c) => c.id === channel.id)?.defaultRole?.canPost).toBe(
      false,
    );

    const refused = await emitAck<{ error: { message: string } }>(socket, 'postMessage', {
      institutionId: ws.id,
      channelId: channel.id,
      content: '<p>hi</p>',
      genId: randomUUID(),
    });
    expect(refused).toEqual({ error: { message: 'You cannot post in this channel' } });
    const rest = await restPostRaw(member, ws, channel);
    expect(rest.status).toBe(403);
    expect(rest.body.message).toBe('You cannot post in this channel');
    expect((await restPostRaw(owner, ws, channel)).status).toBe(201);

    const speakers = await owner.api.post<{ role: ChannelRole }>(url, { name: 'speakers', canPost: true });
    const given = await owner.api.put(`${url}/${speakers.body.role.id}/members`, {
      members: [member.memberId],
    });
    expect(given.status).toBe(200);
    expect((await restPostRaw(member, ws, channel)).status).toBe(201);
    const holders = await membersOf(owner, ws, channel, speakers.body.role.id);
    expect(holders.map((h) => h.member.id)).toEqual([member.memberId]);
  });

  it('refuses mentions from someone who may not tag, and lets them post plainly', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    const defaultRole = await roleNamed(owner, ws, channel, 'member');
    await owner.api.put(`${channelUrl(ws, channel)}/roles/${defaultRole.id}`, { canTag: false });
    const tagged = await restPostRaw(member, ws, channel, {
      mentions: [{ type: 'everyone', id: 'everyone' }],
    });
    expect(tagged.status).toBe(403);
    expect(tagged.body.message).toBe('You cannot mention people in this channel');
    expect((await restPostRaw(member, ws, channel)).status).toBe(201);
    expect(
      (await restPostRaw(owner, ws, channel, { mentions: [{ type: 'member', id: member.memberId }] })).status,
    ).toBe(201);
  });

  it('lets a holder of a canDeleteMessage role delete others’ messages, and nobody else', async () => {
    const { ws, primaryOwner: owner, member, guest, admin } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member, guest, admin]);
    const written = (await restPostRaw(guest, ws, channel)).body as Message;
    const delBy = async (who: typeof member) =>
      emitAck<Message | { error: { message: string } }>(await connect(t, who.token), 'deleteMessage', {
        institutionId: ws.id,
        channelId: channel.id,
        messageId: written.id,
      });
    const del = () => delBy(member);
    expect(await del()).toEqual({ error: { message: 'You cannot delete this message' } });
    // A workspace admin is no moderator in a channel whose roles do not make them one (decision 0080).
    expect(await delBy(admin)).toEqual({ error: { message: 'You cannot delete this message' } });
    const url = `${channelUrl(ws, channel)}/roles`;
    const mods = await owner.api.post<{ role: ChannelRole }>(url, { name: 'mods', canDeleteMessage: true });
    await owner.api.put(`${url}/${mods.body.role.id}/members`, { members: [member.memberId] });
    expect(await del()).toMatchObject({ id: written.id, content: '' });
  });

  it('gives a role only to people in the channel, and never the default role', async () => {
    const { ws, primaryOwner: owner, member, guest } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'public', [member]);
    const url = `${channelUrl(ws, channel)}/roles`;
    const role = await owner.api.post<{ role: ChannelRole }>(url, { name: 'helpers' });
    const outside = await owner.api.put(`${url}/${role.body.role.id}/members`, { members: [guest.memberId] });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('Everyone given a role must be a member of the channel');
    const defaultRole = await roleNamed(owner, ws, channel, 'member');
    const all = await owner.api.put(`${url}/${defaultRole.id}/members`, { members: [member.memberId] });
    expect(all.body.message).toBe('Everyone in the channel holds the default role');
    const badBody = await owner.api.put(`${url}/${role.body.role.id}/members`, { members: 'me' });
    expect(badBody.status).toBe(400);
  });

  it('moves ownership to another member, who may then manage, while the old owner stays in', async () => {
    const { ws, primaryOwner: owner, member, guest } = await makeTeam(t);
    // The creator is a guest here, so that no workspace-admin power hides the change.
    const channel = await channelWith(guest, ws, 'private', [member]);
    const moved = await guest.api.put(`${channelUrl(ws, channel)}/transfer-ownership`, {
      member: member.memberId,
    });
    expect(moved.status).toBe(200);
    const ownerRole = await roleNamed(member, ws, channel, 'owner');
    const people = await membersOf(member, ws, channel);
    const rolesOfPerson = (id: string) => people.find((p) => p.member.id === id)?.channelMember.roles;
    expect(rolesOfPerson(member.memberId)).toEqual([ownerRole.id]);
    expect(rolesOfPerson(guest.memberId)).toEqual([]);
    expect((await member.api.post(`${channelUrl(ws, channel)}/roles`, { name: 'new' })).status).toBe(201);
    const former = await guest.api.post(`${channelUrl(ws, channel)}/roles`, { name: 'again' });
    expect(former.status).toBe(403);
    expect(former.body.message).toBe('Only the channel owner can do that');
    const notIn = await member.api.put(`${channelUrl(ws, channel)}/transfer-ownership`, {
      member: owner.memberId,
    });
    expect(notIn.status).toBe(400);
    expect(notIn.body.message).toBe('The new owner must be a member of the channel');
  });

  it('carries every role of the joined channels, so permissions work on the device', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private', [member]);
    const data = await joined(member, ws);
    const ids = new Set(data.channelRoles?.filter((r) => r.channelId === channel.id).map((r) => r.name));
    expect(ids).toEqual(new Set(['member', 'owner']));
  });

  it('lets nobody manage a direct message', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const dm = await owner.api.post<{ channel: { id: string } }>(
      `/api/institutions/${ws.id}/channels/direct_messages`,
      {
        directMessageMemberId: member.memberId,
      },
    );
    const res = await owner.api.post(`${channelUrl(ws, dm.body.channel)}/roles`, { name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('A direct message has no owner to manage it');
  });
});
