// Message actions over the socket: reactions, pins, stars and forwards are applied once per opId (a replay
// changes and broadcasts nothing), checked against spec §6 (direct-message defaults included), validated
// without dropping the connection, and carried by catch-up (each change bumps the channel's seq).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChangesResponse,
  Channel,
  Message,
  MessageListResponse,
  StarredMessage,
  WorkspaceChangesResponse,
} from '../../schemas/protocol/index.ts';
import {
  channelsUrl,
  channelWith,
  emitAck,
  makeTeam,
  type Person,
  record,
  type Team,
} from './channel-world.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { type Client, connect, disconnectAll, messagesUrl, pause, restPost } from './messaging-world.ts';

type AckError = { error: { message: string } };
const QUIET_MS = 150;

describe.each(databases)('message actions on %s', (kind) => {
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

  const ref = (channel: Channel, message: Message) => ({
    institutionId: team.ws.id,
    channelId: channel.id,
    messageId: message.id,
    opId: randomUUID(),
  });

  async function joinedSocket(who: Person, channel: Channel): Promise<Client> {
    const socket = await connect(t, who.token);
    expect(
      await emitAck(socket, 'joinChannel', { institutionId: team.ws.id, channelId: channel.id }),
    ).toEqual({
      ok: true,
    });
    return socket;
  }

  describe('reactions', () => {
    it('a reaction shows who reacted, is broadcast once, and a replay of its op changes nothing', async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const reactor = await joinedSocket(team.member, room);
      const watcher = await joinedSocket(team.admin, room);
      const edits = record<Message>(watcher, 'newEditMessage');
      const payload = { ...ref(room, message), emoji: '👍' };

      const first = await emitAck<Message>(reactor, 'toggleReaction', payload);
      expect(first.reactions).toEqual([{ emoji: '👍', count: 1, memberIds: [team.member.memberId] }]);
      expect(first.seq).toBe(message.seq + 1);
      const again = await emitAck<Message>(reactor, 'toggleReaction', payload);
      expect(again).toEqual(first);
      await pause(QUIET_MS);
      expect(edits.map((m) => m.reactions)).toEqual([first.reactions]);

      const changes = await team.admin.api.get<ChangesResponse>(
        `${messagesUrl(team.ws, room.id)}/changes?after=${message.seq}`,
      );
      expect(changes.body.data.map((m) => [m.id, m.reactions.length])).toEqual([[message.id, 1]]);
    });

    it('two copies of one op sent at once apply once', async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const socket = await joinedSocket(team.member, room);
      const payload = { ...ref(room, message), emoji: '👀' };
      const [a, b] = await Promise.all([
        emitAck<Message>(socket, 'toggleReaction', payload),
        emitAck<Message>(socket, 'toggleReaction', payload),
      ]);
      expect(a).toEqual(b);
      expect(a.reactions).toEqual([{ emoji: '👀', count: 1, memberIds: [team.member.memberId] }]);
      expect(a.seq).toBe(message.seq + 1);
    });

    it('a deleted message takes no reactions', async () => {
      const message = await restPost(team.member, team.ws, room.id);
      const socket = await joinedSocket(team.member, room);
      await emitAck(socket, 'deleteMessage', {
        institutionId: team.ws.id,
        channelId: room.id,
        messageId: message.id,
      });
      const refused = await emitAck<AckError>(socket, 'toggleReaction', {
        ...ref(room, message),
        emoji: '👍',
      });
      expect(refused.error.message).toBe('This message was deleted');
    });

    it('a stated reaction cannot be undone by its replay, and taking it back removes the person', async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const socket = await joinedSocket(team.member, room);
      const add = { ...ref(room, message), emoji: '🎉', reacted: true };
      await emitAck(socket, 'toggleReaction', add);
      const twice = await emitAck<Message>(socket, 'toggleReaction', { ...add, opId: randomUUID() });
      expect(twice.reactions).toEqual([{ emoji: '🎉', count: 1, memberIds: [team.member.memberId] }]);
      const removed = await emitAck<Message>(socket, 'toggleReaction', {
        ...add,
        opId: randomUUID(),
        reacted: false,
      });
      expect(removed.reactions).toEqual([]);
      expect((await emitAck<Message>(socket, 'toggleReaction', add)).reactions).toEqual([]);
    });

    it('refuses bad input and non-members with an error acknowledgement, and the connection carries on', async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const socket = await joinedSocket(team.member, room);
      const empty = await emitAck<AckError>(socket, 'toggleReaction', { ...ref(room, message), emoji: '  ' });
      expect(empty.error.message).toMatch(/emoji/i);
      const noOp = await emitAck<AckError>(socket, 'toggleReaction', {
        ...ref(room, message),
        opId: 'x',
        emoji: '👍',
      });
      expect(noOp.error.message).toBeTruthy();
      const guest = await connect(t, team.guest.token);
      const outsider = await emitAck<AckError>(guest, 'toggleReaction', {
        ...ref(room, message),
        emoji: '👍',
      });
      expect(outsider.error.message).toBe('You are not a member of this channel');
      expect(socket.connected).toBe(true);
      const fine = await emitAck<Message>(socket, 'toggleReaction', { ...ref(room, message), emoji: '👍' });
      expect(fine.reactions).toHaveLength(1);
    });

    it('an opId names one action: reusing it for another is refused', async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const socket = await joinedSocket(team.member, room);
      const payload = { ...ref(room, message), emoji: '👍' };
      await emitAck(socket, 'toggleReaction', payload);
      const reused = await emitAck<AckError>(socket, 'toggleStarredMessage', payload);
      expect(reused.error.message).toBe('This operation id is already used');
    });
  });

  describe('pins', () => {
    it('needs canPinMessage: a plain member is refused, the channel owner pins once for everyone', async () => {
      const message = await restPost(team.member, team.ws, room.id);
      const member = await joinedSocket(team.member, room);
      const owner = await joinedSocket(team.primaryOwner, room);
      const watcher = await joinedSocket(team.admin, room);
      const edits = record<Message>(watcher, 'newEditMessage');
      const pins = record<Message>(watcher, 'newEditPinnedMessage');

      const refused = await emitAck<AckError>(member, 'togglePinMessage', ref(room, message));
      expect(refused.error.message).toBe('You cannot pin messages in this channel');
      const payload = ref(room, message);
      const pinned = await emitAck<Message>(owner, 'togglePinMessage', payload);
      expect(pinned.isPinned).toBe(true);
      expect(await emitAck<Message>(owner, 'togglePinMessage', payload)).toEqual(pinned);
      await pause(QUIET_MS);
      expect(edits.map((m) => m.isPinned)).toEqual([true]);
      expect(pins.map((m) => m.id)).toEqual([message.id]);

      const list = await team.member.api.get<MessageListResponse>(
        `${messagesUrl(team.ws, room.id)}/pinned?page=1&limit=10`,
      );
      expect(list.body.data.map((i) => i.message.id)).toContain(message.id);
      const unpinned = await emitAck<Message>(owner, 'togglePinMessage', {
        ...ref(room, message),
        pinned: false,
      });
      expect(unpinned.isPinned).toBe(false);
      const after = await team.member.api.get<MessageListResponse>(`${messagesUrl(team.ws, room.id)}/pinned`);
      expect(after.body.data.map((i) => i.message.id)).not.toContain(message.id);
      expect((await team.guest.api.get(`${messagesUrl(team.ws, room.id)}/pinned`)).status).toBe(403);
    });

    it("in a direct message both people may pin, but neither may delete the other's message", async () => {
      const created = await team.primaryOwner.api.post<{ channel: Channel }>(
        `${channelsUrl(team.ws)}/direct_messages`,
        {
          directMessageMemberId: team.member.memberId,
        },
      );
      const dm = created.body.channel;
      const message = await restPost(team.primaryOwner, team.ws, dm.id);
      const member = await joinedSocket(team.member, dm);
      const pinned = await emitAck<Message>(member, 'togglePinMessage', ref(dm, message));
      expect(pinned.isPinned).toBe(true);
      const deleted = await emitAck<AckError>(member, 'deleteMessage', {
        institutionId: team.ws.id,
        channelId: dm.id,
        messageId: message.id,
      });
      expect(deleted.error.message).toBe('You cannot delete this message');
    });
  });

  describe('stars', () => {
    it('are private: the starrer sees isStarred and their list, nobody else hears of it', async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const starrer = await joinedSocket(team.member, room);
      const watcher = await joinedSocket(team.admin, room);
      const edits = record<Message>(watcher, 'newEditMessage');
      const payload = ref(room, message);
      const starred = await emitAck<StarredMessage>(starrer, 'toggleStarredMessage', payload);
      expect(starred).toMatchObject({ id: message.id, isStarred: true, seq: message.seq });
      // A replay of the flip does not flip back.
      expect((await emitAck<StarredMessage>(starrer, 'toggleStarredMessage', payload)).isStarred).toBe(true);
      await pause(QUIET_MS);
      expect(edits).toEqual([]);

      const mine = await team.member.api.get<MessageListResponse>(
        `${messagesUrl(team.ws, room.id)}/starred?page=1`,
      );
      expect(mine.body.data.map((i) => i.message.id)).toEqual([message.id]);
      const theirs = await team.admin.api.get<MessageListResponse>(
        `${messagesUrl(team.ws, room.id)}/starred`,
      );
      expect(theirs.body.data).toEqual([]);
      const off = await emitAck<StarredMessage>(starrer, 'toggleStarredMessage', {
        ...ref(room, message),
        starred: false,
      });
      expect(off.isStarred).toBe(false);
      const none = await team.member.api.get<MessageListResponse>(`${messagesUrl(team.ws, room.id)}/starred`);
      expect(none.body.data).toEqual([]);
    });

    it("reach the starrer's other devices, and nobody else's, once per change", async () => {
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const phone = await joinedSocket(team.member, room);
      const laptop = await connect(t, team.member.token);
      const watcher = await joinedSocket(team.admin, room);
      const onLaptop = record<StarredMessage>(laptop, 'messageStarred');
      const onWatcher = record<StarredMessage>(watcher, 'messageStarred');
      const payload = { ...ref(room, message), starred: true };
      await emitAck<StarredMessage>(phone, 'toggleStarredMessage', payload);
      await emitAck<StarredMessage>(phone, 'toggleStarredMessage', payload); // a replay
      await emitAck<StarredMessage>(phone, 'toggleStarredMessage', { ...ref(room, message), starred: true });
      await emitAck<StarredMessage>(phone, 'toggleStarredMessage', { ...ref(room, message), starred: false });
      await pause(QUIET_MS);
      expect(onLaptop.map((m) => [m.genId, m.isStarred])).toEqual([
        [message.genId, true],
        [message.genId, false],
      ]);
      expect(onWatcher).toEqual([]);
    });

    it("are in every read of history and catch-up, each reader's own", async () => {
      const starredOne = await restPost(team.primaryOwner, team.ws, room.id, '<p>keep this</p>');
      const plain = await restPost(team.primaryOwner, team.ws, room.id, '<p>not this</p>');
      const starrer = await joinedSocket(team.member, room);
      await emitAck<StarredMessage>(starrer, 'toggleStarredMessage', {
        ...ref(room, starredOne),
        starred: true,
      });
      const starOf = (data: Message[], m: Message) => data.find((d) => d.genId === m.genId)?.isStarred;

      const page = await team.member.api.get<{ data: Message[] }>(`${messagesUrl(team.ws, room.id)}?page=1`);
      expect([starOf(page.body.data, starredOne), starOf(page.body.data, plain)]).toEqual([true, false]);
      const theirs = await team.admin.api.get<{ data: Message[] }>(`${messagesUrl(team.ws, room.id)}?page=1`);
      expect(starOf(theirs.body.data, starredOne)).toBe(false);
      const changes = await team.member.api.get<ChangesResponse>(
        `${messagesUrl(team.ws, room.id)}/changes?after=${starredOne.seq - 1}`,
      );
      expect(starOf(changes.body.data, starredOne)).toBe(true);

      // The catch-up feed lists every star of the channels it answers, even of messages it does not send.
      const feed = async (who: Person) =>
        (
          await who.api.post<WorkspaceChangesResponse>(`/api/institutions/${team.ws.id}/messages/changes`, {
            channels: [{ channelId: room.id, after: plain.seq }],
          })
        ).body;
      const mine = await feed(team.member);
      expect(mine.data[0]?.data).toEqual([]);
      expect(mine.starred).toContain(starredOne.genId);
      expect(mine.starred).not.toContain(plain.genId);
      expect(mine.starredComplete).toBe(true);
      expect((await feed(team.admin)).starred).not.toContain(starredOne.genId);
      await emitAck(starrer, 'toggleStarredMessage', { ...ref(room, starredOne), starred: false });
      expect((await feed(team.member)).starred).not.toContain(starredOne.genId);
    });
  });

  describe('forward', () => {
    it('copies a message into two channels once, acknowledging the new messages, and a replay adds nothing', async () => {
      const a = await channelWith(team.member, team.ws, 'public', [team.admin]);
      const b = await channelWith(team.member, team.ws, 'private', [team.admin]);
      const message = await restPost(team.primaryOwner, team.ws, room.id, '<p>worth sharing</p>');
      const forwarder = await joinedSocket(team.member, room);
      const watchA = await joinedSocket(team.admin, a);
      await emitAck(watchA, 'joinChannel', { institutionId: team.ws.id, channelId: b.id });
      const arrived = record<Message>(watchA, 'newMessage');
      const payload = {
        ...ref(room, message),
        channelIds: [a.id, b.id],
        genIds: [randomUUID(), randomUUID()],
      };

      const copies = await emitAck<Message[]>(forwarder, 'forwardMessage', payload);
      expect(copies.map((m) => [m.channelId, m.content, m.memberId, m.forwardedFrom])).toEqual([
        [a.id, '<p>worth sharing</p>', team.member.memberId, { messageId: message.id, channelId: room.id }],
        [b.id, '<p>worth sharing</p>', team.member.memberId, { messageId: message.id, channelId: room.id }],
      ]);
      expect(await emitAck<Message[]>(forwarder, 'forwardMessage', payload)).toEqual(copies);
      await pause(QUIET_MS);
      expect(arrived.map((m) => m.id).sort()).toEqual(copies.map((m) => m.id).sort());
    });

    it('refuses a target the forwarder cannot post in, writing nothing anywhere', async () => {
      const mine = await channelWith(team.member, team.ws, 'public');
      const closed = await channelWith(team.primaryOwner, team.ws, 'private');
      const message = await restPost(team.primaryOwner, team.ws, room.id);
      const socket = await joinedSocket(team.member, room);
      const genIds = [randomUUID(), randomUUID()];
      const refused = await emitAck<AckError>(socket, 'forwardMessage', {
        ...ref(room, message),
        channelIds: [mine.id, closed.id],
        genIds,
      });
      expect(refused.error.message).toBe('You are not a member of this channel');
      const page = await team.member.api.get<{ data: Message[] }>(messagesUrl(team.ws, mine.id));
      expect(page.body.data).toEqual([]);
      const mismatched = await emitAck<AckError>(socket, 'forwardMessage', {
        ...ref(room, message),
        channelIds: [mine.id],
        genIds,
      });
      expect(mismatched.error.message).toBe('Give one genId per channel');
    });
  });
});
