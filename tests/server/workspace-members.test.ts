// Workspace members: who may change whose role (one at a time or in bulk, all or nothing), a member's
// profile with the channels they show, and leaving a workspace.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Institution, JoinedChannels, Member, MemberProfile } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import {
  connect,
  disconnectAll,
  eventually,
  makeChannel,
  makeWorkspace,
  restPost,
  type Workspace,
} from './messaging-world.ts';
import { addPerson, memberIdOf, type Person } from './workspace-world.ts';

type MemberBody = { member: Member };

describe.each(databases)('workspace members on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => disconnectAll());

  const memberUrl = (ws: Workspace, rest: string) => `/api/institutions/${ws.id}/members/${rest}`;
  const roleOf = async (ws: Workspace, memberId: string) => {
    const res = await ws.owner.api.get<{ data: Member[] }>(`/api/institutions/${ws.id}/members`);
    return res.body.data.find((m) => m.id === memberId)?.role;
  };

  describe('changing roles', () => {
    let ws: Workspace;
    let primaryId: string;
    let owner: Person;
    let admin: Person;
    let member: Person;
    beforeAll(async () => {
      ws = await makeWorkspace(t);
      primaryId = await memberIdOf(ws, ws.owner);
      owner = await addPerson(t, ws, 'owner');
      admin = await addPerson(t, ws, 'admin');
      member = await addPerson(t, ws, 'member');
    });

    it('lets an admin make a member a guest and back, answering with the changed member', async () => {
      const res = await admin.api.put<MemberBody>(memberUrl(ws, member.memberId), { role: 'guest' });
      expect(res.status).toBe(200);
      expect(res.body.member).toMatchObject({ id: member.memberId, role: 'guest', email: member.user.email });
      expect(await roleOf(ws, member.memberId)).toBe('guest');
      expect((await admin.api.put(memberUrl(ws, member.memberId), { role: 'member' })).status).toBe(200);
    });

    it('lets only the primary owner make owners or change an owner', async () => {
      const refused = await admin.api.put(memberUrl(ws, member.memberId), { role: 'owner' });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/Only the primary owner/);
      expect((await owner.api.put(memberUrl(ws, member.memberId), { role: 'owner' })).status).toBe(403);
      expect((await admin.api.put(memberUrl(ws, owner.memberId), { role: 'member' })).status).toBe(403);
      expect(await roleOf(ws, owner.memberId)).toBe('owner');

      const made = await ws.owner.api.put<MemberBody>(memberUrl(ws, member.memberId), { role: 'owner' });
      expect(made.body.member.role).toBe('owner');
      expect((await ws.owner.api.put(memberUrl(ws, member.memberId), { role: 'member' })).status).toBe(200);
    });

    it('lets nobody change the primary owner or make a second one', async () => {
      for (const who of [ws.owner, owner, admin]) {
        const res = await who.api.put(memberUrl(ws, primaryId), { role: 'member' });
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/primary owner/);
      }
      const second = await ws.owner.api.put(memberUrl(ws, admin.memberId), { role: 'primary_owner' });
      expect(second.status).toBe(403);
      expect(second.body.message).toMatch(/only one primary owner/);
      expect(await roleOf(ws, primaryId)).toBe('primary_owner');
      expect(await roleOf(ws, admin.memberId)).toBe('admin');
    });

    it('refuses plain members and guests', async () => {
      const res = await member.api.put(memberUrl(ws, admin.memberId), { role: 'member' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/owners and admins/);
    });

    it('changes several members at once, or none when one of them may not be changed', async () => {
      const a = await addPerson(t, ws);
      const b = await addPerson(t, ws);
      const bulk = await admin.api.put<{ data: Member[] }>(memberUrl(ws, 'bulk'), {
        memberIds: [a.memberId, b.memberId],
        update: { role: 'guest' },
      });
      expect(bulk.status).toBe(200);
      expect(bulk.body.data.map((m) => [m.id, m.role])).toEqual([
        [a.memberId, 'guest'],
        [b.memberId, 'guest'],
      ]);

      const mixed = await admin.api.put<{ message: string; fields?: Record<string, string> }>(
        memberUrl(ws, 'bulk'),
        { memberIds: [a.memberId, owner.memberId], update: { role: 'member' } },
      );
      expect(mixed.status).toBe(403);
      expect(mixed.body.message).toMatch(/No roles changed: 1 of 2/);
      // Each refused member's reason, by its place in the request, for the directory to show beside them.
      expect(mixed.body.fields).toEqual({
        'memberIds.1': 'Only the primary owner can make someone an owner or change an owner’s role',
      });
      expect(await roleOf(ws, a.memberId)).toBe('guest');
    });

    it('answers ids from another workspace as not found, changing nothing', async () => {
      const other = await makeWorkspace(t, 'Other');
      const foreignId = await memberIdOf(other, other.owner);
      expect((await ws.owner.api.put(memberUrl(ws, foreignId), { role: 'guest' })).status).toBe(404);
      const bulk = await ws.owner.api.put(memberUrl(ws, 'bulk'), {
        memberIds: [member.memberId, foreignId],
        update: { role: 'guest' },
      });
      expect(bulk.status).toBe(404);
      expect(await roleOf(ws, member.memberId)).toBe('member');
      expect(await roleOf(other, foreignId)).toBe('primary_owner');
    });

    it('answers bad input with 400 and a message', async () => {
      const cases: [string, unknown][] = [
        [memberUrl(ws, member.memberId), { role: 'emperor' }],
        [memberUrl(ws, member.memberId), {}],
        [memberUrl(ws, 'bulk'), { memberIds: [], update: { role: 'guest' } }],
        [memberUrl(ws, 'bulk'), { memberIds: [member.memberId] }],
        [memberUrl(ws, 'bulk'), { memberIds: member.memberId, update: { role: 'guest' } }],
      ];
      for (const [path, body] of cases) {
        const res = await ws.owner.api.put(path, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toEqual(expect.any(String));
      }
    });

    it('tells the workspace to reload its members when a role changes', async () => {
      const socket = await connect(t, member.token);
      const seen: string[] = [];
      socket.on('refresh', (e) => seen.push(e.value));
      expect((await admin.api.put(memberUrl(ws, member.memberId), { role: 'guest' })).status).toBe(200);
      await eventually(() => seen.includes('members'));
      expect((await admin.api.put(memberUrl(ws, member.memberId), { role: 'member' })).status).toBe(200);
    });
  });

  describe('profiles', () => {
    it('shows a member with the channels they chose, hiding private ones the viewer is not in', async () => {
      const ws = await makeWorkspace(t);
      const viewer = await addPerson(t, ws);
      const open = await makeChannel(ws.owner, ws);
      const secret = await makeChannel(ws.owner, ws, 'private');
      const shown = await ws.owner.api.put(`/api/institutions/${ws.id}/channels/profile-channels`, {
        channels: [open.id, secret.id],
      });
      expect(shown.status).toBe(200);
      const ownerId = await memberIdOf(ws, ws.owner);

      const res = await viewer.api.get<MemberProfile>(memberUrl(ws, ownerId));
      expect(res.status).toBe(200);
      expect(res.body.member).toMatchObject({
        id: ownerId,
        role: 'primary_owner',
        email: ws.owner.user.email,
      });
      expect(res.body.channels).toEqual([{ id: open.id, name: open.name, type: 'public' }]);

      const own = await ws.owner.api.get<MemberProfile>(memberUrl(ws, ownerId));
      expect(own.body.channels.map((c) => c.id).sort()).toEqual([open.id, secret.id].sort());
    });

    it('does not show a member of another workspace', async () => {
      const ws = await makeWorkspace(t);
      const other = await makeWorkspace(t, 'Other');
      const foreignId = await memberIdOf(other, other.owner);
      expect((await ws.owner.api.get(memberUrl(ws, foreignId))).status).toBe(404);
      expect((await other.owner.api.get(memberUrl(ws, await memberIdOf(ws, ws.owner)))).status).toBe(403);
    });
  });

  describe('leaving', () => {
    it('takes the person out of the workspace and its channels, keeping their messages', async () => {
      const ws = await makeWorkspace(t);
      const leaver = await addPerson(t, ws);
      const room = await makeChannel(leaver, ws);
      const message = await restPost(leaver, ws, ws.general.id, '<p>bye all</p>');
      const ownerSocket = await connect(t, ws.owner.token);
      const leaverSocket = await connect(t, leaver.token);
      const ownerSaw: string[] = [];
      const leaverSaw: string[] = [];
      ownerSocket.on('refresh', (e) => ownerSaw.push(e.value));
      leaverSocket.on('refresh', (e) => leaverSaw.push(e.value));

      const res = await leaver.api.delete(memberUrl(ws, 'me'));
      expect(res.status).toBe(200);
      await eventually(
        () =>
          ownerSaw.includes('members') && ownerSaw.includes('groups') && leaverSaw.includes('institutions'),
      );

      const mine = await leaver.api.get<{ data: Institution[] }>('/api/institutions');
      expect(mine.body.data.map((i) => i.id)).not.toContain(ws.id);
      expect((await leaver.api.get(`/api/institutions/${ws.id}/channels/joined`)).status).toBe(403);
      expect((await leaver.api.get(`/api/institutions/${ws.id}/channels/${room.id}/messages`)).status).toBe(
        403,
      );
      const members = await ws.owner.api.get<{ data: Member[] }>(`/api/institutions/${ws.id}/members`);
      expect(members.body.data.map((m) => m.id)).not.toContain(leaver.memberId);
      const history = await ws.owner.api.get<{ data: { id: string }[] }>(
        `/api/institutions/${ws.id}/channels/${ws.general.id}/messages`,
      );
      expect(history.body.data.map((m) => m.id)).toContain(message.id);
      const joined = await ws.owner.api.get<JoinedChannels>(`/api/institutions/${ws.id}/channels/joined`);
      expect(joined.status).toBe(200);

      // Leaving twice: they are no longer a member.
      expect((await leaver.api.delete(memberUrl(ws, 'me'))).status).toBe(403);
    });

    it('hands a channel the leaver alone owned to its longest-standing person, who may then manage it', async () => {
      const ws = await makeWorkspace(t);
      const leaver = await addPerson(t, ws);
      const first = await addPerson(t, ws);
      const second = await addPerson(t, ws);
      const room = await makeChannel(leaver, ws);
      const alone = await makeChannel(leaver, ws);
      const roomUrl = `/api/institutions/${ws.id}/channels/${room.id}`;
      expect((await first.api.post(`${roomUrl}/members`)).status).toBe(200);
      expect((await second.api.post(`${roomUrl}/members`)).status).toBe(200);
      const firstSocket = await connect(t, first.token);
      const firstSaw: string[] = [];
      firstSocket.on('refresh', (e) => firstSaw.push(e.value));

      expect((await leaver.api.delete(memberUrl(ws, 'me'))).status).toBe(200);
      await eventually(() => firstSaw.includes('joinedChannels'));
      expect((await first.api.put(roomUrl, { name: 'handed-on' })).status).toBe(200);
      const bySecond = await second.api.put(roomUrl, { name: 'taken-over' });
      expect(bySecond.status).toBe(403);
      expect(bySecond.body.message).toBe('Only the channel owner can do that');
      // A channel nobody else was in keeps no owner, and nothing failed on its account.
      const left = await ws.owner.api.get<{ data: { channelMember: { roles: string[] } }[] }>(
        `/api/institutions/${ws.id}/channels/${alone.id}/members`,
      );
      expect(left.body.data).toEqual([]);
    });

    it('does not let the primary owner leave', async () => {
      const ws = await makeWorkspace(t);
      const res = await ws.owner.api.delete(memberUrl(ws, 'me'));
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/primary owner cannot leave/);
    });

    it('lets someone who left be invited and join again', async () => {
      const ws = await makeWorkspace(t);
      const person = await addPerson(t, ws);
      expect((await person.api.delete(memberUrl(ws, 'me'))).status).toBe(200);
      await ws.owner.api.post(`/api/institutions/${ws.id}/invited-members`, { emails: [person.user.email] });
      expect((await person.api.post(`/api/institutions/${ws.id}/members`)).status).toBe(200);
      const joined = await person.api.get<JoinedChannels>(`/api/institutions/${ws.id}/channels/joined`);
      expect(joined.body.channels.map((c) => c.id)).toContain(ws.general.id);
    });
  });
});
