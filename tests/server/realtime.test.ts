// The realtime socket: only signed-in clients connect, only channel members listen, every event answers
// through its acknowledgement (after the commit), and no bad payload breaks the connection.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JoinedChannels, Message, MessagePage } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser } from './harness.ts';
import {
  addMember,
  type Client,
  collect,
  connect,
  disconnectAll,
  eventually,
  makeChannel,
  makeWorkspace,
  messagesUrl,
  pause,
  type Workspace,
} from './messaging-world.ts';

/** The socket without its event typing, to send what a typed client could not. */
const raw = (socket: Client) => socket as unknown as { emit(event: string, ...args: unknown[]): void };

/** Long enough for a broadcast that should not happen to have arrived on this machine. */
const QUIET_MS = 300;
type PresenceUpdate = { user: { id: string }; status: 'online' | 'offline' };
/** Every presence change the socket hears, whether alone (userOnlineStatusUpdate) or batched. */
const onPresence = (socket: Client, listener: (u: PresenceUpdate) => unknown) => {
  socket.on('userOnlineStatusUpdate', (u) => void listener(u));
  socket.on('userOnlineStatusUpdates', (e) => {
    for (const u of e.updates) listener(u);
  });
};

describe.each(databases)('realtime on %s', (kind) => {
  let t: TestServer;
  let ws: Workspace;
  let bob: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    t = await startTestServer(kind);
    ws = await makeWorkspace(t);
    bob = await addMember(t, ws);
    carol = await addMember(t, ws);
  });
  afterAll(async () => {
    disconnectAll();
    await t?.close();
  });

  const ref = (channelId: string) => ({ institutionId: ws.id, channelId });
  const ack = <T = unknown>(socket: Client, event: string, ...args: unknown[]): Promise<T> =>
    (socket.timeout(5_000) as unknown as { emitWithAck(e: string, ...a: unknown[]): Promise<T> }).emitWithAck(
      event,
      ...args,
    );
  const post = (socket: Client, channelId: string, content = '<p>hi</p>', genId = randomUUID()) =>
    ack<Message>(socket, 'postMessage', { ...ref(channelId), content, genId });
  const joined = async (user: TestUser, channelId: string) => {
    const socket = await connect(t, user.token);
    expect(await ack(socket, 'joinChannel', ref(channelId))).toEqual({ ok: true });
    return socket;
  };

  it("puts a new workspace's creator and a newcomer into #general's room at once, before the app asks", async () => {
    // Connected before the workspace exists (the tab that creates it): no joinChannel is ever sent here.
    const founder = await t.signUp();
    const founderSocket = await connect(t, founder.token);
    const created = await founder.api.post<{ institution: { id: string } }>('/api/institutions', {
      name: 'Fresh',
    });
    const fresh = created.body.institution.id;
    const newcomer = await t.signUp();
    const newcomerSocket = await connect(t, newcomer.token);
    await founder.api.post(`/api/institutions/${fresh}/invited-members`, { emails: [newcomer.user.email] });
    expect((await newcomer.api.post(`/api/institutions/${fresh}/members`)).status).toBe(200);
    const channels = await founder.api.get<JoinedChannels>(`/api/institutions/${fresh}/channels/joined`);
    const general = channels.body.channels.find((c) => c.name === 'general');
    if (!general) throw new Error('no #general');

    const founderHears = collect(founderSocket, 'newMessage');
    const newcomerHears = collect(newcomerSocket, 'newMessage');
    await newcomer.api.post(`/api/institutions/${fresh}/channels/${general.id}/messages`, {
      content: '<p>first words</p>',
      genId: randomUUID(),
    });
    await founder.api.post(`/api/institutions/${fresh}/channels/${general.id}/messages`, {
      content: '<p>welcome</p>',
      genId: randomUUID(),
    });
    await eventually(() => founderHears.length === 2 && newcomerHears.length === 2);
  });

  describe('connecting', () => {
    it('refuses a socket without a token, with a wrong token, or with a revoked one', async () => {
      await expect(connect(t, undefined)).rejects.toThrow('session invalid');
      await expect(connect(t, 'not-a-token')).rejects.toThrow('session invalid');
      const leaving = await t.signUp();
      await leaving.api.put('/api/users/logout');
      await expect(connect(t, leaving.token)).rejects.toThrow('session invalid');
    });

    it('tells the workspace when a member comes online and when their last socket goes', async () => {
      const watcher = await connect(t, ws.owner.token);
      const updates: { id: string; status: string }[] = [];
      onPresence(
        watcher,
        (u) => u.user.id === carol.user.id && updates.push({ id: u.user.id, status: u.status }),
      );
      const first = await connect(t, carol.token);
      const second = await connect(t, carol.token);
      await eventually(() => updates.length >= 1);
      second.disconnect();
      await pause(QUIET_MS);
      expect(updates).toEqual([{ id: carol.user.id, status: 'online' }]);
      first.disconnect();
      await eventually(() => updates.length >= 2);
      expect(updates[1]).toEqual({ id: carol.user.id, status: 'offline' });
    });
    it('announces everyone who connects at once, each online exactly once', async () => {
      const people = await Promise.all(Array.from({ length: 6 }, () => addMember(t, ws)));
      const watcher = await connect(t, ws.owner.token);
      const updates: PresenceUpdate[] = [];
      const ids = new Set(people.map((p) => p.user.id));
      onPresence(watcher, (u) => ids.has(u.user.id) && updates.push(u));
      await Promise.all(people.map((p) => connect(t, p.token)));
      await eventually(() => updates.length >= people.length);
      await pause(QUIET_MS);
      expect(updates.map((u) => u.user.id).sort()).toEqual([...ids].sort());
      expect(updates.every((u) => u.status === 'online')).toBe(true);
    });
    it('leaves a member who reloads (old socket gone, new one at once) online for the others', async () => {
      const erin = await t.signUp();
      await ws.owner.api.post(`/api/institutions/${ws.id}/invited-members`, { emails: [erin.user.email] });
      expect((await erin.api.post(`/api/institutions/${ws.id}/members`)).status).toBe(200);
      const watcher = await connect(t, ws.owner.token);
      const updates: string[] = [];
      onPresence(watcher, (u) => u.user.id === erin.user.id && updates.push(u.status));
      let current = await connect(t, erin.token);
      await eventually(() => updates.length >= 1);
      for (let reload = 0; reload < 5; reload++) {
        const next = connect(t, erin.token);
        current.disconnect();
        current = await next;
      }
      await pause(QUIET_MS);
      expect(updates.at(-1)).toBe('online');
    });
    it('tells a workspace joined after connecting when the member goes offline', async () => {
      const dave = await t.signUp();
      const socket = await connect(t, dave.token);
      const later = await makeWorkspace(t, 'Later');
      const watcher = await connect(t, later.owner.token);
      const updates: string[] = [];
      onPresence(watcher, (u) => u.user.id === dave.user.id && updates.push(u.status));
      await later.owner.api.post(`/api/institutions/${later.id}/invited-members`, {
        emails: [dave.user.email],
      });
      expect((await dave.api.post(`/api/institutions/${later.id}/members`)).status).toBe(200);
      await pause(QUIET_MS);
      socket.disconnect();
      await eventually(() => updates.includes('offline'));
    });
  });

  describe('joining channels', () => {
    it('lets a member join and refuses a non-member, who then hears nothing of it', async () => {
      const secret = await makeChannel(ws.owner, ws, 'private');
      const owner = await joined(ws.owner, secret.id);
      const outsider = await connect(t, bob.token);
      const refused = await ack(outsider, 'joinChannel', ref(secret.id));
      expect(refused).toEqual({ error: { message: 'You are not a member of this channel' } });
      const overheard = collect(outsider, 'newMessage');
      await post(owner, secret.id);
      await pause(QUIET_MS);
      expect(overheard).toEqual([]);
    });

    it("refuses another workspace's channel, whichever workspace id comes with it", async () => {
      const other = await makeWorkspace(t, 'Other');
      const socket = await connect(t, bob.token);
      const theirs = await ack<{ error: { message: string } }>(socket, 'joinChannel', {
        institutionId: other.id,
        channelId: other.general.id,
      });
      expect(theirs.error.message).toBeTruthy();
      const crossed = await ack<{ error: { message: string } }>(socket, 'joinChannel', {
        institutionId: ws.id,
        channelId: other.general.id,
      });
      expect(crossed.error.message).toBe('Channel not found');
      const posted = await ack<{ error: { message: string } }>(socket, 'postMessage', {
        institutionId: other.id,
        channelId: other.general.id,
        content: 'x',
        genId: randomUUID(),
      });
      expect(posted.error.message).toBeTruthy();
    });
  });

  describe('posting', () => {
    it('acknowledges with the stored message, readable at once, and delivers it to the other members once', async () => {
      const channel = await makeChannel(ws.owner, ws);
      await bob.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
      const alice = await joined(ws.owner, channel.id);
      const listener = await joined(bob, channel.id);
      const heard = collect(listener, 'newMessage');

      const stored = await post(alice, channel.id, '<p>hello <b>bob</b></p>');
      expect(stored).toMatchObject({
        content: '<p>hello <b>bob</b></p>',
        channelId: channel.id,
        seq: 1,
        createdSeq: 1,
      });
      // The acknowledgement comes after the commit: the very next read sees the message.
      const page = await bob.api.get<MessagePage>(messagesUrl(ws, channel.id));
      expect(page.body.data.map((m) => m.id)).toEqual([stored.id]);

      await eventually(() => heard.length === 1);
      expect(heard[0]).toEqual(stored);
    });

    it('answers a repeated genId with the same message and broadcasts nothing new', async () => {
      const alice = await joined(ws.owner, ws.general.id);
      const listener = await joined(bob, ws.general.id);
      const heard = collect(listener, 'newMessage');
      const genId = randomUUID();
      const first = await post(alice, ws.general.id, '<p>once</p>', genId);
      const again = await post(alice, ws.general.id, '<p>once</p>', genId);
      const racing = await Promise.all([1, 2, 3].map(() => post(alice, ws.general.id, '<p>once</p>', genId)));
      expect(again).toEqual(first);
      expect(racing.map((m) => m.id)).toEqual([first.id, first.id, first.id]);
      await pause(QUIET_MS);
      expect(heard.filter((m) => m.genId === genId)).toHaveLength(1);
    });

    it('stores one message when identical posts race from two connections', async () => {
      const channel = await makeChannel(ws.owner, ws);
      const one = await joined(ws.owner, channel.id);
      const two = await connect(t, ws.owner.token);
      const genId = randomUUID();
      const results = await Promise.all([
        post(one, channel.id, '<p>x</p>', genId),
        post(two, channel.id, '<p>x</p>', genId),
        post(one, channel.id, '<p>x</p>', genId),
        post(two, channel.id, '<p>x</p>', genId),
      ]);
      expect(new Set(results.map((m) => m.id)).size).toBe(1);
      const next = await post(one, channel.id);
      expect(next.seq).toBe(2);
    });
  });

  describe('editing and deleting', () => {
    it('lets the author edit, broadcasting the new version with the next seq', async () => {
      const channel = await makeChannel(ws.owner, ws);
      const alice = await joined(ws.owner, channel.id);
      const edits = collect(alice, 'newEditMessage');
      const original = await post(alice, channel.id, '<p>frist</p>');
      const edited = await ack<Message>(alice, 'editMessage', {
        ...ref(channel.id),
        messageId: original.id,
        content: '<p>first<script>x</script></p>',
      });
      expect(edited).toMatchObject({ id: original.id, content: '<p>first</p>', seq: 2, createdSeq: 1 });
      expect(edited.editedAt).not.toBeNull();
      await eventually(() => edits.length === 1);
      expect(edits[0]).toEqual(edited);
    });

    it("refuses to edit someone else's message, or to delete it as a plain member", async () => {
      const alice = await joined(ws.owner, ws.general.id);
      const intruder = await connect(t, bob.token);
      const original = await post(alice, ws.general.id, '<p>mine</p>');
      const edit = await ack(intruder, 'editMessage', {
        ...ref(ws.general.id),
        messageId: original.id,
        content: 'x',
      });
      expect(edit).toEqual({ error: { message: 'You can only edit your own messages' } });
      const del = await ack(intruder, 'deleteMessage', { ...ref(ws.general.id), messageId: original.id });
      expect(del).toEqual({ error: { message: 'You cannot delete this message' } });
    });

    it('lets the author or the channel owner delete, leaving a tombstone that cannot be changed again', async () => {
      const owner = await joined(ws.owner, ws.general.id);
      const author = await joined(bob, ws.general.id);
      const deletes = collect(owner, 'newDeleteMessage');
      const byBob = await post(author, ws.general.id, '<p>oops</p>');
      const removedByOwner = await ack<Message>(owner, 'deleteMessage', {
        ...ref(ws.general.id),
        messageId: byBob.id,
      });
      expect(removedByOwner).toMatchObject({
        id: byBob.id,
        content: '',
        deletedAt: expect.any(String),
        seq: byBob.seq + 1,
      });
      await eventually(() => deletes.length === 1);

      const own = await post(author, ws.general.id, '<p>mine</p>');
      expect(
        await ack<Message>(author, 'deleteMessage', { ...ref(ws.general.id), messageId: own.id }),
      ).toMatchObject({
        deletedAt: expect.any(String),
      });
      const again = await ack(author, 'deleteMessage', { ...ref(ws.general.id), messageId: own.id });
      expect(again).toEqual({ error: { message: 'This message was deleted' } });
      const edit = await ack(author, 'editMessage', {
        ...ref(ws.general.id),
        messageId: own.id,
        content: '<p>x</p>',
      });
      expect(edit).toEqual({ error: { message: 'This message was deleted' } });
    });
    it("lets the holder of a channel's ownership role delete others' messages there", async () => {
      const bobsRoom = await makeChannel(bob, ws);
      await carol.api.post(`/api/institutions/${ws.id}/channels/${bobsRoom.id}/members`);
      const author = await connect(t, carol.token);
      const channelOwner = await connect(t, bob.token);
      const byCarol = await post(author, bobsRoom.id, '<p>off topic</p>');
      const removed = await ack<Message>(channelOwner, 'deleteMessage', {
        ...ref(bobsRoom.id),
        messageId: byCarol.id,
      });
      expect(removed).toMatchObject({ id: byCarol.id, deletedAt: expect.any(String) });
    });
  });

  describe('bad input', () => {
    it('answers malformed payloads with an error and keeps the connection working', async () => {
      const socket = await joined(bob, ws.general.id);
      const bad: unknown[] = [
        undefined,
        null,
        'text',
        42,
        [],
        { ...ref(ws.general.id) },
        { ...ref(ws.general.id), content: 'x', genId: 'nope' },
        { ...ref(ws.general.id), content: 7, genId: randomUUID() },
        { ...ref(ws.general.id), content: 'x'.repeat(40_001), genId: randomUUID() },
        { ...ref(ws.general.id), content: 'x', genId: randomUUID(), attachments: 'many' },
        { institutionId: 5, channelId: {}, content: 'x', genId: randomUUID() },
      ];
      for (const payload of bad) {
        const reply = await ack<{ error?: { message: string } }>(socket, 'postMessage', payload);
        expect(reply.error?.message, JSON.stringify(payload)?.slice(0, 80)).toEqual(expect.any(String));
      }
      expect(await ack(socket, 'editMessage', { messageId: 1 })).toMatchObject({ error: expect.anything() });
      expect(await ack(socket, 'deleteMessage', {})).toMatchObject({ error: expect.anything() });
      expect(await ack(socket, 'joinChannel', 'general')).toMatchObject({ error: expect.anything() });
      expect(await ack(socket, 'resetUnreadCount', null)).toMatchObject({ error: expect.anything() });
      // Events without an acknowledgement, with only an acknowledgement, or unknown must not hurt either.
      raw(socket).emit('postMessage', { nonsense: true });
      const onlyAck = await new Promise((resolve) => raw(socket).emit('postMessage', resolve));
      expect(onlyAck).toMatchObject({ error: expect.anything() });
      raw(socket).emit('noSuchEvent');

      expect(socket.connected).toBe(true);
      const fine = await post(socket, ws.general.id, '<p>still here</p>');
      expect(fine.content).toBe('<p>still here</p>');
    });

    it('refuses a payload larger than the socket limit without taking the server down', async () => {
      const socket = await connect(t, bob.token);
      const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
      raw(socket).emit('postMessage', {
        ...ref(ws.general.id),
        content: 'x'.repeat(2_000_000),
        genId: randomUUID(),
      });
      expect(await closed).toBeTruthy();
      const other = await connect(t, bob.token);
      expect((await post(other, ws.general.id, '<p>server fine</p>')).content).toBe('<p>server fine</p>');
    });
  });

  describe('unread counts', () => {
    it('resets the count and remembers the last message read', async () => {
      const channel = await makeChannel(ws.owner, ws);
      await carol.api.post(`/api/institutions/${ws.id}/channels/${channel.id}/members`);
      const alice = await joined(ws.owner, channel.id);
      await post(alice, channel.id);
      const last = await post(alice, channel.id);
      const membership = async () => {
        const res = await carol.api.get<JoinedChannels>(`/api/institutions/${ws.id}/channels/joined`);
        return res.body.channelMembers.find((m) => m.channelId === channel.id);
      };
      expect((await membership())?.unreadCount).toBe(2);
      const reader = await connect(t, carol.token);
      expect(await ack(reader, 'resetUnreadCount', ref(channel.id))).toEqual({ ok: true });
      expect(await membership()).toMatchObject({ unreadCount: 0, lastReadMessage: last.id });
      const outsider = await connect(t, (await makeWorkspace(t, 'Elsewhere')).owner.token);
      expect(await ack(outsider, 'resetUnreadCount', ref(channel.id))).toMatchObject({
        error: expect.anything(),
      });
    });
  });
});
