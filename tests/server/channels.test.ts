// Channels: browsing, creating, joining and leaving, renaming and deleting, direct messages, and that
// another workspace's ids never reveal anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Channel,
  ChannelMember,
  ErrorBody,
  Institution,
  JoinedChannels,
  Member,
} from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';

interface WithMembership {
  channel: Channel;
  channelMember: ChannelMember;
}

describe.each(databases)('channels on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A workspace with its owner, an invited member, and paths to its channels. */
  async function makeTeam() {
    const owner = await t.signUp();
    const created = await owner.api.post<{ institution: Institution; member: Member }>('/api/institutions', {
      name: 'Team',
    });
    const institution = created.body.institution;
    const member = await t.signUp();
    await owner.api.post(`/api/institutions/${institution.id}/invited-members`, {
      emails: [member.user.email],
    });
    const accepted = await member.api.post<{ member: Member }>(`/api/institutions/${institution.id}/members`);
    const channels = `/api/institutions/${institution.id}/channels`;
    return {
      owner,
      ownerMember: created.body.member,
      member,
      memberMember: accepted.body.member,
      institution,
      channels,
    };
  }

  const createChannel = async (user: TestUser, channels: string, name: string, type = 'public') => {
    const res = await user.api.post<WithMembership>(channels, { name, type });
    expect(res.status).toBe(201);
    return res.body;
  };
  const joinedNames = async (user: TestUser, channels: string) =>
    (await user.api.get<JoinedChannels>(`${channels}/joined`)).body.channels.map((c) => c.name).sort();

  it('creates a channel whose creator holds its ownership role', async () => {
    const { owner, ownerMember, channels } = await makeTeam();
    const { channel, channelMember } = await createChannel(owner, channels, ' Design Team ');
    expect(channel).toMatchObject({
      name: 'design team',
      type: 'public',
      isDefault: false,
      createdBy: ownerMember.id,
    });
    expect(channel.defaultRole).toMatchObject({
      name: 'member',
      canPost: true,
      canTag: true,
      canDeleteMessage: false,
    });
    expect(channelMember).toMatchObject({ channelId: channel.id, memberId: ownerMember.id, unreadCount: 0 });
    expect(channelMember.roles).toHaveLength(1);
    expect(await joinedNames(owner, channels)).toEqual(['design team', 'general']);
  });

  it('refuses a second channel with the same name, and bad names', async () => {
    const { owner, member, channels } = await makeTeam();
    await createChannel(owner, channels, 'random');
    const dup = await member.api.post(channels, { name: 'RANDOM', type: 'private' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A channel with this name already exists');
    expect((await member.api.post(channels, { name: 'general' })).status).toBe(409);

    const bad = await owner.api.post(channels, { name: 'no/slashes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Use letters, numbers, spaces, - and _');
    expect((await owner.api.post(channels, { name: 'x', type: 'direct_message' })).status).toBe(400);
  });

  it("browses public channels and the private ones the caller is in, never others' private channels", async () => {
    const { owner, member, channels } = await makeTeam();
    await createChannel(owner, channels, 'open');
    await createChannel(owner, channels, 'secret', 'private');
    await createChannel(member, channels, 'mine', 'private');

    const ownerView = await owner.api.get<{ data: Channel[] }>(channels);
    expect(ownerView.body.data.map((c) => c.name).sort()).toEqual(['general', 'open', 'secret']);
    const memberView = await member.api.get<{ data: Channel[] }>(channels);
    expect(memberView.body.data.map((c) => c.name).sort()).toEqual(['general', 'mine', 'open']);
  });

  it('joins a public channel (twice is harmless) and refuses to join a private one', async () => {
    const { owner, member, memberMember, channels } = await makeTeam();
    const open = await createChannel(owner, channels, 'open');
    const secret = await createChannel(owner, channels, 'secret', 'private');

    const joined = await member.api.post<WithMembership>(`${channels}/${open.channel.id}/members`);
    expect(joined.status).toBe(200);
    expect(joined.body.channelMember).toMatchObject({ memberId: memberMember.id, roles: [] });
    const again = await member.api.post<WithMembership>(`${channels}/${open.channel.id}/members`);
    expect(again.body.channelMember.id).toBe(joined.body.channelMember.id);
    expect(await joinedNames(member, channels)).toEqual(['general', 'open']);

    const refused = await member.api.post(`${channels}/${secret.channel.id}/members`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This channel is private');
  });

  it('leaves a channel, but never a default one', async () => {
    const { owner, member, channels } = await makeTeam();
    const open = await createChannel(owner, channels, 'open');
    await member.api.post(`${channels}/${open.channel.id}/members`);
    expect((await member.api.delete(`${channels}/${open.channel.id}/members`)).status).toBe(200);
    expect(await joinedNames(member, channels)).toEqual(['general']);

    const general = (await member.api.get<JoinedChannels>(`${channels}/joined`)).body.channels[0]!;
    const refused = await member.api.delete(`${channels}/${general.id}/members`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('You cannot leave a default channel');
  });

  it('lets only the channel owner rename and delete it, not even the workspace owner', async () => {
    const { owner, member, channels } = await makeTeam();
    const byMember = await createChannel(member, channels, 'project');
    const path = `${channels}/${byMember.channel.id}`;

    const renamed = await member.api.put<{ channel: Channel }>(path, { name: 'project-x' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.channel.name).toBe('project-x');

    const byOwner = await createChannel(owner, channels, 'owners');
    await member.api.post(`${channels}/${byOwner.channel.id}/members`);
    expect((await member.api.put(`${channels}/${byOwner.channel.id}`, { name: 'taken-over' })).status).toBe(
      403,
    );
    expect((await member.api.delete(`${channels}/${byOwner.channel.id}`)).status).toBe(403);

    // Spec §6: ownership roles are the only ones who manage a channel, so the workspace owner does not
    // manage one they do not own (decision 0080); its owner still can.
    const renamedByWorkspaceOwner = await owner.api.put(path, { name: 'taken-over' });
    expect(renamedByWorkspaceOwner.status).toBe(403);
    expect(renamedByWorkspaceOwner.body.message).toBe('Only the channel owner can do that');
    expect((await owner.api.delete(path)).status).toBe(403);
    expect(await joinedNames(member, channels)).toEqual(['general', 'owners', 'project-x']);
    expect((await member.api.delete(path)).status).toBe(200);
    expect(await joinedNames(member, channels)).toEqual(['general', 'owners']);
    expect((await member.api.get(`${path}/messages`)).status).toBe(404);
  });

  it('lets those who manage a channel describe it, seen by its members; an empty text removes it', async () => {
    const { owner, member, channels } = await makeTeam();
    const plans = await createChannel(owner, channels, 'plans');
    const path = `${channels}/${plans.channel.id}`;
    await member.api.post(`${path}/members`);

    const described = await owner.api.put<{ channel: Channel }>(path, {
      description: '  Dates and decisions for the spring fair ',
    });
    expect(described.status).toBe(200);
    expect(described.body.channel).toMatchObject({
      name: 'plans',
      description: 'Dates and decisions for the spring fair',
    });
    const seen = (await member.api.get<JoinedChannels>(`${channels}/joined`)).body.channels;
    expect(seen.find((c) => c.id === plans.channel.id)?.description).toBe(
      'Dates and decisions for the spring fair',
    );

    // A member who does not manage it may not; a description too long is refused beside its field.
    expect((await member.api.put(path, { description: 'mine now' })).status).toBe(403);
    const long = await owner.api.put<ErrorBody>(path, { description: 'x'.repeat(251) });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual({ description: 'A description has at most 250 characters' });
    expect((await owner.api.put(path, {})).status).toBe(400);

    const cleared = await owner.api.put<{ channel: Channel }>(path, { description: '' });
    expect(cleared.body.channel.description).toBeNull();
    expect(cleared.body.channel.name).toBe('plans');
  });

  it('never deletes a default channel', async () => {
    const { owner, channels } = await makeTeam();
    const general = (await owner.api.get<JoinedChannels>(`${channels}/joined`)).body.channels[0]!;
    const res = await owner.api.delete(`${channels}/${general.id}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('A default channel cannot be deleted');
  });

  it('opens one direct message per pair, whichever side asks, with the DM permissions', async () => {
    const { owner, ownerMember, member, memberMember, channels } = await makeTeam();
    const first = await owner.api.post<WithMembership>(`${channels}/direct_messages`, {
      directMessageMemberId: memberMember.id,
    });
    expect(first.status).toBe(200);
    expect(first.body.channel).toMatchObject({ type: 'direct_message', isDefault: false });
    expect([...(first.body.channel.directMessageMembers ?? [])].sort()).toEqual(
      [ownerMember.id, memberMember.id].sort(),
    );
    expect(first.body.channel.defaultRole).toMatchObject({
      canPost: true,
      canPinMessage: true,
      canTag: false,
      canDeleteMessage: false,
    });

    const again = await owner.api.post<WithMembership>(`${channels}/direct_messages`, {
      directMessageMemberId: memberMember.id,
    });
    expect(again.body.channel.id).toBe(first.body.channel.id);
    const fromOtherSide = await member.api.post<WithMembership>(`${channels}/direct_messages`, {
      directMessageMemberId: ownerMember.id,
    });
    expect(fromOtherSide.body.channel.id).toBe(first.body.channel.id);
    expect(fromOtherSide.body.channelMember.memberId).toBe(memberMember.id);

    const joined = await member.api.get<JoinedChannels>(`${channels}/joined`);
    expect(joined.body.channels.map((c) => c.type).sort()).toEqual(['direct_message', 'public']);
    // Direct messages are not browsable, and cannot be joined, left, renamed or deleted.
    const browse = await member.api.get<{ data: Channel[] }>(channels);
    expect(browse.body.data.some((c) => c.type === 'direct_message')).toBe(false);
    const dmPath = `${channels}/${first.body.channel.id}`;
    expect((await member.api.delete(`${dmPath}/members`)).status).toBe(400);
    expect((await owner.api.put(dmPath, { name: 'renamed' })).status).toBe(400);
    expect((await owner.api.delete(dmPath)).status).toBe(400);
  });

  it('keeps a third member out of a direct message between two others', async () => {
    const { owner, member, memberMember, channels, institution } = await makeTeam();
    const third = await t.signUp();
    await owner.api.post(`/api/institutions/${institution.id}/invited-members`, {
      emails: [third.user.email],
    });
    await third.api.post(`/api/institutions/${institution.id}/members`);
    const dm = await owner.api.post<WithMembership>(`${channels}/direct_messages`, {
      directMessageMemberId: memberMember.id,
    });
    expect(member).toBeDefined();
    expect((await third.api.post(`${channels}/${dm.body.channel.id}/members`)).status).toBe(403);
    expect((await third.api.get(`${channels}/${dm.body.channel.id}/messages`)).status).toBe(403);
  });

  it('opens a notes-to-self direct message with oneself', async () => {
    const { owner, ownerMember, channels } = await makeTeam();
    const res = await owner.api.post<WithMembership>(`${channels}/direct_messages`, {
      directMessageMemberId: ownerMember.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.channel.directMessageMembers).toEqual([ownerMember.id, ownerMember.id]);
    const again = await owner.api.post<WithMembership>(`${channels}/direct_messages`, {
      directMessageMemberId: ownerMember.id,
    });
    expect(again.body.channel.id).toBe(res.body.channel.id);
  });

  it("answers another workspace's ids with 403 or 404 and never with its data", async () => {
    const a = await makeTeam();
    const b = await makeTeam();
    const secret = await createChannel(b.owner, b.channels, 'b-secret', 'private');
    const bGeneral = (await b.owner.api.get<JoinedChannels>(`${b.channels}/joined`)).body.channels[0]!;

    // A member of A asking about B's workspace: 403, no data.
    for (const res of [
      await a.owner.api.get<{ data?: unknown }>(b.channels),
      await a.owner.api.get<{ data?: unknown }>(`${b.channels}/joined`),
      await a.owner.api.post<{ data?: unknown }>(`${b.channels}/${bGeneral.id}/members`),
      await a.owner.api.put<{ data?: unknown }>(`/api/institutions/${b.institution.id}`, { name: 'hijack' }),
    ]) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('b-secret');
    }
    // B's channel ids under A's workspace: 404, as if they did not exist.
    expect((await a.owner.api.post(`${a.channels}/${bGeneral.id}/members`)).status).toBe(404);
    expect((await a.owner.api.put(`${a.channels}/${secret.channel.id}`, { name: 'x' })).status).toBe(404);
    expect((await a.owner.api.delete(`${a.channels}/${secret.channel.id}`)).status).toBe(404);
    expect((await a.owner.api.delete(`${a.channels}/${bGeneral.id}/members`)).status).toBe(404);
    // A direct message with a member of another workspace does not exist.
    const dm = await a.owner.api.post(`${a.channels}/direct_messages`, {
      directMessageMemberId: b.ownerMember.id,
    });
    expect(dm.status).toBe(404);
  });

  it('answers bad ids and bodies with 400', async () => {
    const { owner, channels } = await makeTeam();
    expect((await owner.api.post(`${channels}/direct_messages`, {})).status).toBe(400);
    expect((await owner.api.put(`${channels}/${'x'.repeat(65)}`, { name: 'ok' })).status).toBe(400);
    const res = await owner.api.post(channels, { name: 42 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The name should be text.');
  });
});
