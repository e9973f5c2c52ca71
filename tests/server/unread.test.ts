// Unread counts as a person sees them in their joined list: others' messages since they last read the
// channel, never their own, never one deleted before they saw it, nothing from before they joined; kept
// as read positions (decision 0047), so each case here goes through the real post, delete and read paths.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Message } from '../../schemas/protocol/index.ts';
import {
  channelUrl,
  channelWith,
  emitAck,
  joined,
  makeTeam,
  type Person,
  type Team,
} from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { type Client, connect, disconnectAll, restPost } from './messaging-world.ts';

describe.each(databases)('unread counts on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  // alice and bob are in every channel made here; carol joins when a case says so.
  let alice: Person;
  let bob: Person;
  let carol: Person;

  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
    alice = team.primaryOwner;
    bob = team.member;
    carol = team.admin;
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  const room = () => channelWith(alice, team.ws, 'public', [bob]);
  const ref = (channel: Channel) => ({ institutionId: team.ws.id, channelId: channel.id });

  async function unreadOf(who: Person, channel: Channel): Promise<number | undefined> {
    return (await joined(who, team.ws)).channelMembers.find((m) => m.channelId === channel.id)?.unreadCount;
  }
  const sockets = new Map<string, Client>();
  async function socketOf(who: Person, channel: Channel): Promise<Client> {
    let socket = sockets.get(who.memberId);
    if (!socket) {
      socket = await connect(t, who.token);
      sockets.set(who.memberId, socket);
    }
    expect(await emitAck(socket, 'joinChannel', ref(channel))).toEqual({ ok: true });
    return socket;
  }
  async function read(who: Person, channel: Channel): Promise<void> {
    expect(await emitAck(await socketOf(who, channel), 'resetUnreadCount', ref(channel))).toEqual({
      ok: true,
    });
  }
  async function remove(who: Person, channel: Channel, message: Message): Promise<void> {
    const deleted = await emitAck<Message>(await socketOf(who, channel), 'deleteMessage', {
      ...ref(channel),
      messageId: message.id,
    });
    expect(deleted.deletedAt).not.toBeNull();
  }

  it("counts others' messages since the last read and never the reader's own", async () => {
    const channel = await room();
    await restPost(alice, team.ws, channel.id);
    await restPost(alice, team.ws, channel.id);
    await restPost(bob, team.ws, channel.id);
    expect(await unreadOf(bob, channel)).toBe(2);
    expect(await unreadOf(alice, channel)).toBe(1);

    await read(bob, channel);
    expect(await unreadOf(bob, channel)).toBe(0);
    await restPost(alice, team.ws, channel.id);
    for (let i = 0; i < 3; i++) await restPost(bob, team.ws, channel.id);
    // Bob's own three after his read do not count for him; alice has read nothing: bob's four count.
    expect(await unreadOf(bob, channel)).toBe(1);
    expect(await unreadOf(alice, channel)).toBe(4);
  });

  it('says up to which message of the channel it counted, so a client adds live ones only above it', async () => {
    const channel = await room();
    await restPost(alice, team.ws, channel.id);
    const second = await restPost(alice, team.ws, channel.id);
    const list = await joined(bob, team.ws);
    const mine = list.channelMembers.find((m) => m.channelId === channel.id);
    expect(mine?.unreadCount).toBe(2);
    expect(mine?.unreadThrough).toBe(second.createdSeq);
    expect(list.channels.find((c) => c.id === channel.id)?.lastSeq).toBe(second.createdSeq);
  });

  it('never counts again what was read, however often the list is fetched again', async () => {
    const channel = await room();
    await restPost(alice, team.ws, channel.id);
    await restPost(alice, team.ws, channel.id);
    await read(bob, channel);
    // A reload, a restart, another device: the joined list is fetched again, by a new connection too.
    expect(await unreadOf(bob, channel)).toBe(0);
    sockets.get(bob.memberId)?.disconnect();
    sockets.delete(bob.memberId);
    await socketOf(bob, channel);
    expect(await unreadOf(bob, channel)).toBe(0);
    await read(bob, channel);
    expect(await unreadOf(bob, channel)).toBe(0);
  });

  it('stops counting a message deleted before it was read, and never goes below zero', async () => {
    const channel = await room();
    const first = await restPost(alice, team.ws, channel.id);
    const second = await restPost(alice, team.ws, channel.id);
    expect(await unreadOf(bob, channel)).toBe(2);
    await remove(alice, channel, first);
    expect(await unreadOf(bob, channel)).toBe(1);

    await read(bob, channel);
    // Deleted after bob read it: nothing to take away.
    await remove(alice, channel, second);
    expect(await unreadOf(bob, channel)).toBe(0);

    // Bob's own message, posted and deleted: it never counted for him, and alice (who never read) has
    // nothing unread from him once it is gone.
    const own = await restPost(bob, team.ws, channel.id);
    expect(await unreadOf(alice, channel)).toBe(1);
    await remove(bob, channel, own);
    expect(await unreadOf(bob, channel)).toBe(0);
    expect(await unreadOf(alice, channel)).toBe(0);
  });

  it('starts a member who joins late with nothing unread, and counts from their joining', async () => {
    const channel = await room();
    for (let i = 0; i < 3; i++) await restPost(alice, team.ws, channel.id);
    const deletedBefore = await restPost(alice, team.ws, channel.id);
    await remove(alice, channel, deletedBefore);

    expect((await carol.api.post(`${channelUrl(team.ws, channel)}/members`)).status).toBe(200);
    expect(await unreadOf(carol, channel)).toBe(0);
    await restPost(alice, team.ws, channel.id);
    expect(await unreadOf(carol, channel)).toBe(1);

    // Leaving and coming back: what was said meanwhile is history, not unread.
    expect((await carol.api.delete(`${channelUrl(team.ws, channel)}/members`)).status).toBe(200);
    await restPost(alice, team.ws, channel.id);
    expect((await carol.api.post(`${channelUrl(team.ws, channel)}/members`)).status).toBe(200);
    expect(await unreadOf(carol, channel)).toBe(0);
  });

  it('counts replies, polls and forwarded messages as messages, and edits not at all', async () => {
    const channel = await room();
    const elsewhere = await room();
    const original = await restPost(alice, team.ws, channel.id, '<p>first</p>');
    await read(bob, channel);

    const socket = await socketOf(alice, channel);
    const edited = await emitAck<Message>(socket, 'editMessage', {
      ...ref(channel),
      messageId: original.id,
      content: '<p>first, edited</p>',
    });
    expect(edited.editedAt).not.toBeNull();
    expect(await unreadOf(bob, channel)).toBe(0);

    const reply = await alice.api.post<Message>(`${channelUrl(team.ws, channel)}/messages`, {
      content: '<p>a reply</p>',
      genId: randomUUID(),
      replyTo: original.id,
    });
    expect(reply.status).toBe(201);
    const poll = await emitAck<Message>(socket, 'createPoll', {
      ...ref(channel),
      opId: randomUUID(),
      genId: randomUUID(),
      question: 'Lunch?',
      options: ['Yes', 'No'],
    });
    expect(poll.poll).toBeTruthy();
    const notice = await restPost(alice, team.ws, elsewhere.id, '<p>worth sharing</p>');
    await socketOf(alice, elsewhere);
    const copies = await emitAck<Message[]>(socket, 'forwardMessage', {
      ...ref(elsewhere),
      messageId: notice.id,
      opId: randomUUID(),
      channelIds: [channel.id],
      genIds: [randomUUID()],
    });
    expect(copies).toHaveLength(1);
    expect(await unreadOf(bob, channel)).toBe(3);
    // The forwarder's own copy does not count for them.
    expect(await unreadOf(alice, channel)).toBe(0);
  });

  it('counts posts that share one commit per reader, each author excluded from their own', async () => {
    const channel = await room();
    const senders = [
      await connect(t, alice.token),
      await connect(t, alice.token),
      await connect(t, bob.token),
    ];
    for (const s of senders) expect(await emitAck(s, 'joinChannel', ref(channel))).toEqual({ ok: true });
    // Sent in one tick: they share group-commit batches (decision 0023).
    const acks = await Promise.all(
      senders.flatMap((s) =>
        [0, 1, 2, 3].map(() =>
          emitAck<Message>(s, 'postMessage', {
            ...ref(channel),
            genId: randomUUID(),
            content: '<p>burst</p>',
          }),
        ),
      ),
    );
    const byAlice = acks.filter((m) => m.memberId === alice.memberId).length;
    expect(byAlice).toBe(8);
    expect(await unreadOf(bob, channel)).toBe(8);
    expect(await unreadOf(alice, channel)).toBe(4);
    expect((await joined(carol, team.ws)).channelMembers.some((m) => m.channelId === channel.id)).toBe(false);
  });
});
