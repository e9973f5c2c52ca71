// The activity feed: a mention of me (directly, by a role or group I hold, @everyone), a reply to my message
// and a reaction to it each raise one entry for me and none for the author; people outside the channel
// never get one; entries are marked read by id or all at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivitiesResponse, Channel, Group, Mention, Message } from '../../schemas/protocol/index.ts';
import { channelWith, emitAck, makeTeam, type Person, roleNamed, type Team } from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { connect, disconnectAll } from './messaging-world.ts';

describe.each(databases)('activity feed on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  let room: Channel;

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
    room = await channelWith(team.primaryOwner, team.ws, 'public', [team.member, team.admin]);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  const feedUrl = () => `/api/institutions/${team.ws.id}/activities`;
  async function feed(who: Person, query = '') {
    const res = await who.api.get<ActivitiesResponse>(`${feedUrl()}${query}`);
    expect(res.status).toBe(200);
    return res.body;
  }
  async function postWith(by: Person, body: { mentions?: Mention[]; replyTo?: string }): Promise<Message> {
    const res = await by.api.post<Message>(`/api/institutions/${team.ws.id}/channels/${room.id}/messages`, {
      content: '<p>hey</p>',
      genId: randomUUID(),
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const entriesFor = async (who: Person, messageId: string) =>
    (await feed(who)).data.filter((a) => a.message.id === messageId).map((a) => [a.type, a.actorMemberId]);

  it('a mention raises an unread entry for the person mentioned only, not for someone outside the channel', async () => {
    const message = await postWith(team.admin, {
      mentions: [
        { type: 'member', id: team.member.memberId },
        { type: 'member', id: team.guest.memberId },
      ],
    });
    const mine = await feed(team.member);
    const entry = mine.data.find((a) => a.message.id === message.id);
    expect(entry).toMatchObject({
      type: 'mention',
      actorMemberId: team.admin.memberId,
      read: false,
      emoji: null,
    });
    expect(entry?.message.content).toBe('<p>hey</p>');
    expect(await entriesFor(team.guest, message.id)).toEqual([]);
    expect(await entriesFor(team.admin, message.id)).toEqual([]);
  });

  it('@everyone reaches every channel member but the author; a role mention reaches its holders', async () => {
    const everyone = await postWith(team.admin, { mentions: [{ type: 'everyone', id: 'everyone' }] });
    expect(await entriesFor(team.member, everyone.id)).toEqual([['mention', team.admin.memberId]]);
    expect(await entriesFor(team.primaryOwner, everyone.id)).toEqual([['mention', team.admin.memberId]]);
    expect(await entriesFor(team.admin, everyone.id)).toEqual([]);

    const ownerRole = await roleNamed(team.primaryOwner, team.ws, room, 'owner');
    const byRole = await postWith(team.member, { mentions: [{ type: 'role', id: ownerRole.id }] });
    expect(await entriesFor(team.primaryOwner, byRole.id)).toEqual([['mention', team.member.memberId]]);
    expect(await entriesFor(team.admin, byRole.id)).toEqual([]);
  });

  it('a group mention reaches the group members who are in the channel', async () => {
    const created = await team.primaryOwner.api.post<{ group: Group }>(
      `/api/institutions/${team.ws.id}/groups`,
      {
        name: `crew-${randomUUID().slice(0, 6)}`,
      },
    );
    const group = created.body.group;
    const added = await team.primaryOwner.api.put(
      `/api/institutions/${team.ws.id}/groups/${group.id}/emails`,
      {
        emails: [team.member.user.email, team.guest.user.email],
        action: 'add',
      },
    );
    expect(added.status).toBe(200);
    const message = await postWith(team.admin, { mentions: [{ type: 'group', id: group.id }] });
    expect(await entriesFor(team.member, message.id)).toEqual([['mention', team.admin.memberId]]);
    expect(await entriesFor(team.guest, message.id)).toEqual([]);
  });

  it('a reply raises a reply entry for the author of the original', async () => {
    const original = await postWith(team.member, {});
    const reply = await postWith(team.admin, { replyTo: original.id });
    expect(await entriesFor(team.member, reply.id)).toEqual([['reply', team.admin.memberId]]);
    const ownReply = await postWith(team.member, { replyTo: original.id });
    expect(await entriesFor(team.member, ownReply.id)).toEqual([]);
  });

  it('a reply that also mentions its target is one entry (a mention), and an edit adding the mention again adds none', async () => {
    const original = await postWith(team.member, {});
    const both = await postWith(team.admin, {
      replyTo: original.id,
      mentions: [{ type: 'member', id: team.member.memberId }],
    });
    expect(await entriesFor(team.member, both.id)).toEqual([['mention', team.admin.memberId]]);

    // A plain reply, then an edit that mentions the person replied to and someone new.
    const reply = await postWith(team.admin, { replyTo: original.id });
    const socket = await connect(t, team.admin.token);
    await emitAck(socket, 'editMessage', {
      institutionId: team.ws.id,
      channelId: room.id,
      messageId: reply.id,
      content: '<p>hey you two</p>',
      mentions: [
        { type: 'member', id: team.member.memberId },
        { type: 'member', id: team.primaryOwner.memberId },
      ],
    });
    expect(await entriesFor(team.member, reply.id)).toEqual([['reply', team.admin.memberId]]);
    expect(await entriesFor(team.primaryOwner, reply.id)).toEqual([['mention', team.admin.memberId]]);
  });

  it('a reaction raises an entry with its emoji for the author, and taking it back removes it', async () => {
    const message = await postWith(team.member, {});
    const socket = await connect(t, team.admin.token);
    const ref = { institutionId: team.ws.id, channelId: room.id, messageId: message.id, emoji: '🔥' };
    await emitAck(socket, 'toggleReaction', { ...ref, opId: randomUUID(), reacted: true });
    const entry = (await feed(team.member)).data.find((a) => a.message.id === message.id);
    expect(entry).toMatchObject({ type: 'reaction', emoji: '🔥', actorMemberId: team.admin.memberId });
    expect(entry?.message.reactions).toEqual([{ emoji: '🔥', count: 1, memberIds: [team.admin.memberId] }]);
    await emitAck(socket, 'toggleReaction', { ...ref, opId: randomUUID(), reacted: false });
    expect(await entriesFor(team.member, message.id)).toEqual([]);
  });

  it('marks entries read by id or all at once, and counts what stays unread', async () => {
    const before = await feed(team.member, '?page=1&limit=2');
    expect(before.data).toHaveLength(2);
    expect(before.metadata).toMatchObject({ page: 1, limit: 2, hasMore: true });
    const unread = before.metadata.unread;
    expect(unread).toBeGreaterThan(2);
    const [first] = before.data;
    const marked = await team.member.api.put<{ unread: number }>(`${feedUrl()}/read`, { ids: [first?.id] });
    expect(marked.body).toEqual({ unread: unread - 1 });
    expect((await feed(team.member)).data.find((a) => a.id === first?.id)?.read).toBe(true);
    // Someone else's ids are not theirs to mark.
    const others = await feed(team.primaryOwner);
    await team.member.api.put(`${feedUrl()}/read`, { all: true });
    expect((await feed(team.member)).metadata.unread).toBe(0);
    expect((await feed(team.primaryOwner)).metadata.unread).toBe(others.metadata.unread);
    const bad = await team.member.api.put<{ message: string }>(`${feedUrl()}/read`, { ids: [] });
    expect(bad.status).toBe(400);
    expect((await team.outsider.api.get(feedUrl())).status).toBe(403);
  });
});
