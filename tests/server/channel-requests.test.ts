// Join requests for private channels: asking with a reason, owners seeing and answering them over REST
// or the socket, both sides hearing the outcome live, and the rules that keep requests sensible.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Channel,
  ChannelLookup,
  ChannelRequest,
  ErrorBody,
  MemberActionEvent,
} from '../../schemas/protocol/index.ts';
import { channelsUrl, channelUrl, channelWith, emitAck, joined, makeTeam, record } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll, eventually } from './messaging-world.ts';

describe.each(databases)('channel requests on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterEach(() => disconnectAll());
  afterAll(async () => {
    await t?.close();
  });

  it('tells a link to a missing channel from a private one, naming only what the caller may read', async () => {
    const { ws, guest: owner, member, admin, outsider, foreignWs } = await makeTeam(t);
    const secret = await channelWith(owner, ws, 'private');
    const open = await channelWith(owner, ws, 'public');
    const lookup = (who: Pick<typeof member, 'api'>, w: typeof ws, id: string) =>
      who.api.get<ChannelLookup | ErrorBody>(`${channelsUrl(w)}/${id}/lookup`);

    expect((await lookup(member, ws, secret.id)).body).toEqual({
      type: 'private',
      isMember: false,
      name: null,
    });
    expect((await lookup(owner, ws, secret.id)).body).toEqual({
      type: 'private',
      isMember: true,
      name: secret.name,
    });
    expect((await lookup(member, ws, open.id)).body).toEqual({
      type: 'public',
      isMember: false,
      name: open.name,
    });

    const missing = await lookup(member, ws, '0190d0e4-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: 'Channel not found' });
    // Another workspace's channel is not found through this one.
    expect((await lookup(member, foreignWs, secret.id)).status).toBe(403);
    expect((await lookup(owner, ws, secret.id)).status).toBe(200);

    // Someone else's direct message does not exist for the caller; their own does.
    const dm = await owner.api.post<{ channel: Channel }>(`${channelsUrl(ws)}/direct_messages`, {
      directMessageMemberId: admin.memberId,
    });
    const theirs = await lookup(member, ws, dm.body.channel.id);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ message: 'Channel not found' });
    expect((await lookup(admin, ws, dm.body.channel.id)).body).toEqual({
      type: 'direct_message',
      isMember: true,
      name: null,
    });
    // People outside the workspace learn nothing.
    expect((await lookup(outsider, ws, secret.id)).status).toBe(403);
  });

  it('lets a member ask to join, the owner approve, and both see it happen live', async () => {
    const { ws, guest: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private');
    const [ownerSocket, memberSocket] = await Promise.all([
      connect(t, owner.token),
      connect(t, member.token),
    ]);
    const ownerHears = record<MemberActionEvent>(ownerSocket, 'memberAction');
    const memberHears = record<MemberActionEvent>(memberSocket, 'memberAction');

    const asked = await member.api.post<{ request: ChannelRequest }>(`${channelUrl(ws, channel)}/requests`, {
      reason: ' I work on this ',
    });
    expect(asked.status).toBe(201);
    const request = asked.body.request;
    expect(request).toMatchObject({
      channelId: channel.id,
      channelName: null,
      memberId: member.memberId,
      reason: 'I work on this',
      status: 'pending',
      decidedAt: null,
    });
    await eventually(() => ownerHears.some((e) => e.requestId === request.id && e.status === 'pending'));

    const listed = await owner.api.get<{ data: ChannelRequest[] }>(
      `${channelUrl(ws, channel)}/requests?status=pending`,
    );
    expect(listed.body.data.map((r) => r.id)).toEqual([request.id]);

    const approved = await owner.api.put<{ request: ChannelRequest }>(
      `${channelUrl(ws, channel)}/requests/${request.id}`,
      { status: 'approved' },
    );
    expect(approved.body.request).toMatchObject({ status: 'approved', decidedBy: owner.memberId });
    const outcome = {
      channelId: channel.id,
      memberId: member.memberId,
      action: 'request',
      status: 'approved',
    };
    await eventually(() => memberHears.some((e) => e.status === 'approved'));
    await eventually(() => ownerHears.some((e) => e.status === 'approved'));
    expect(memberHears.at(-1)).toMatchObject(outcome);
    const membership = (await joined(member, ws)).channelMembers.find((m) => m.channelId === channel.id);
    expect(membership?.roles).toEqual([]); // the default role applies
    const again = await owner.api.put(`${channelUrl(ws, channel)}/requests/${request.id}`, {
      status: 'rejected',
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This request has already been answered');
  });

  it('lets the owner reject over the socket, and the requester find the answer in their requests', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private');
    const asked = await member.api.post<{ request: ChannelRequest }>(`${channelUrl(ws, channel)}/requests`, {
      reason: 'please',
    });
    const memberSocket = await connect(t, member.token);
    const memberHears = record<MemberActionEvent>(memberSocket, 'memberAction');
    const ownerSocket = await connect(t, owner.token);
    const ack = await emitAck<ChannelRequest>(ownerSocket, 'memberAction', {
      institutionId: ws.id,
      channelId: channel.id,
      action: 'request',
      requestId: asked.body.request.id,
      status: 'rejected',
    });
    expect(ack).toMatchObject({ id: asked.body.request.id, status: 'rejected' });
    await eventually(() => memberHears.some((e) => e.status === 'rejected'));
    const mine = await member.api.get<{ data: ChannelRequest[] }>(`${channelsUrl(ws)}/requests/mine`);
    expect(mine.body.data.map((r) => [r.channelName, r.status])).toEqual([[null, 'rejected']]);
    expect((await joined(member, ws)).channels.map((c) => c.id)).not.toContain(channel.id);

    const byMember = await emitAck<{ error: { message: string } }>(memberSocket, 'memberAction', {
      institutionId: ws.id,
      channelId: channel.id,
      action: 'request',
      requestId: asked.body.request.id,
      status: 'approved',
    });
    expect(byMember).toEqual({ error: { message: 'Only the channel owner can do that' } });
    const bad = await emitAck<{ error: { message: string } }>(ownerSocket, 'memberAction', {
      action: 'kick',
    });
    expect(bad.error.message).toMatch(/^The (workspace id|action) /);
  });

  it('keeps one pending request per person and refuses requests that make no sense', async () => {
    const { ws, primaryOwner: owner, member } = await makeTeam(t);
    const secret = await channelWith(owner, ws, 'private');
    const open = await channelWith(owner, ws, 'public');
    const ask = (channel: { id: string }, reason = 'hi') =>
      member.api.post(`${channelUrl(ws, channel)}/requests`, { reason });
    expect((await ask(secret)).status).toBe(201);
    const twice = await ask(secret);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('You have already asked to join this channel');
    const empty = await ask(secret, '   ');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Give a reason');
    const pub = await ask(open);
    expect(pub.status).toBe(400);
    expect(pub.body.message).toBe('This channel is public: join it directly');
    const already = await owner.api.post(`${channelUrl(ws, secret)}/requests`, { reason: 'me' });
    expect(already.status).toBe(400);
    expect(already.body.message).toBe('You are already a member of this channel');
    const badStatus = await owner.api.get(`${channelUrl(ws, secret)}/requests?status=maybe`);
    expect(badStatus.status).toBe(400);
  });

  // Spec §6: answering requests is managing the channel, which only its ownership roles do (decision 0080).
  it('shows requests only to the channel’s managers, not to a workspace admin outside them', async () => {
    const { ws, guest: owner, member, admin } = await makeTeam(t);
    const channel = await channelWith(owner, ws, 'private');
    await member.api.post(`${channelUrl(ws, channel)}/requests`, { reason: 'hi' });
    const url = `${channelUrl(ws, channel)}/requests`;
    expect((await member.api.get(url)).status).toBe(403);
    const byAdmin = await admin.api.get(url);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe('Only the channel owner can do that');
    expect((await owner.api.get<{ data: unknown[] }>(url)).body.data).toHaveLength(1);
  });
});
