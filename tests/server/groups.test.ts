// Workspace groups: admins create, rename, fill (by e-mail) and delete them; every member can list them
// because groups are mentionable; other workspaces never see them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Group, GroupEmailsResponse } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';
import { connect, disconnectAll, eventually, type Workspace } from './messaging-world.ts';
import { makeTeam, type Team } from './workspace-world.ts';

type GroupBody = { group: Group };

describe.each(databases)('workspace groups on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  beforeAll(async () => {
    t = await startTestServer(kind);
    team = await makeTeam(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => disconnectAll());

  const url = (ws: Workspace, rest = '') => `/api/institutions/${ws.id}/groups${rest}`;
  let counter = 0;
  const freshName = () => `Team ${++counter}`;

  async function createGroup(name = freshName()) {
    const res = await team.admin.api.post<GroupBody>(url(team.ws), { name });
    expect(res.status).toBe(201);
    return res.body.group;
  }

  it('lets an admin create a group that every member then sees', async () => {
    const group = await createGroup('  Designers ');
    expect(group).toMatchObject({ name: 'Designers', createdBy: team.admin.memberId, memberIds: [] });
    for (const who of [team.member, team.guest, team.primaryOwner]) {
      const listed = await who.api.get<{ data: Group[] }>(url(team.ws));
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((g) => g.id)).toContain(group.id);
    }
  });

  it('adds and removes members by e-mail, reporting addresses of nobody in the workspace', async () => {
    const group = await createGroup();
    const nobody = uniqueEmail('nobody');
    const added = await team.owner.api.put<GroupEmailsResponse>(url(team.ws, `/${group.id}/emails`), {
      emails: [team.member.user.email, team.guest.user.email.toUpperCase(), nobody, team.stranger.user.email],
      action: 'add',
    });
    expect(added.status).toBe(200);
    expect(added.body.group.memberIds.sort()).toEqual([team.member.memberId, team.guest.memberId].sort());
    expect(added.body.unknownEmails.sort()).toEqual([nobody, team.stranger.user.email].sort());

    // Adding again changes nothing.
    const again = await team.owner.api.put<GroupEmailsResponse>(url(team.ws, `/${group.id}/emails`), {
      emails: [team.member.user.email],
      action: 'add',
    });
    expect(again.body.group.memberIds).toHaveLength(2);

    const removed = await team.owner.api.put<GroupEmailsResponse>(url(team.ws, `/${group.id}/emails`), {
      emails: [team.member.user.email],
      action: 'remove',
    });
    expect(removed.body.group.memberIds).toEqual([team.guest.memberId]);
    expect(removed.body.unknownEmails).toEqual([]);
  });

  it('renames a group, and refuses a name another group has (ignoring case)', async () => {
    const a = await createGroup();
    const b = await createGroup();
    const renamed = await team.admin.api.put<GroupBody>(url(team.ws, `/${a.id}`), { name: 'Renamed One' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.group.name).toBe('Renamed One');
    const clash = await team.admin.api.put(url(team.ws, `/${b.id}`), { name: 'renamed one' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/already exists/);
    expect((await team.admin.api.post(url(team.ws), { name: 'RENAMED ONE' })).status).toBe(409);
    // Renaming to its own name is fine.
    expect((await team.admin.api.put(url(team.ws, `/${a.id}`), { name: 'Renamed One' })).status).toBe(200);
  });

  it('deletes a group', async () => {
    const group = await createGroup();
    expect((await team.primaryOwner.api.delete(url(team.ws, `/${group.id}`))).status).toBe(200);
    const listed = await team.member.api.get<{ data: Group[] }>(url(team.ws));
    expect(listed.body.data.map((g) => g.id)).not.toContain(group.id);
    expect((await team.primaryOwner.api.delete(url(team.ws, `/${group.id}`))).status).toBe(404);
  });

  it('lets only primary owner, owner and admin manage groups', async () => {
    const group = await createGroup();
    for (const who of [team.member, team.guest]) {
      const created = await who.api.post(url(team.ws), { name: freshName() });
      expect(created.status).toBe(403);
      expect(created.body.message).toMatch(/owners and admins/);
      expect((await who.api.put(url(team.ws, `/${group.id}`), { name: freshName() })).status).toBe(403);
      expect((await who.api.delete(url(team.ws, `/${group.id}`))).status).toBe(403);
      expect(
        (await who.api.put(url(team.ws, `/${group.id}/emails`), { emails: [who.user.email], action: 'add' }))
          .status,
      ).toBe(403);
    }
  });

  it('never shows or changes a group through another workspace', async () => {
    const group = await createGroup();
    const stranger = team.stranger;
    expect((await stranger.api.get(url(team.ws))).status).toBe(403);
    // Through their own workspace the id is simply not found.
    const own = team.strangerWs;
    expect((await stranger.api.put(url(own, `/${group.id}`), { name: 'Mine' })).status).toBe(404);
    expect((await stranger.api.delete(url(own, `/${group.id}`))).status).toBe(404);
    expect(
      (
        await stranger.api.put(url(own, `/${group.id}/emails`), {
          emails: [stranger.user.email],
          action: 'add',
        })
      ).status,
    ).toBe(404);
    const theirs = await stranger.api.get<{ data: Group[] }>(url(own));
    expect(theirs.body.data.map((g) => g.id)).not.toContain(group.id);
  });

  it('answers bad input with 400 and a message', async () => {
    const group = await createGroup();
    const cases: [string, unknown][] = [
      [url(team.ws), { name: '' }],
      [url(team.ws), {}],
      [url(team.ws), { name: 'x'.repeat(81) }],
    ];
    for (const [path, body] of cases) {
      const res = await team.admin.api.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const emailCases = [
      { emails: [], action: 'add' },
      { emails: ['not-an-address'], action: 'add' },
      { emails: [team.member.user.email], action: 'invite' },
      { emails: team.member.user.email, action: 'add' },
    ];
    for (const body of emailCases) {
      const res = await team.admin.api.put(url(team.ws, `/${group.id}/emails`), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  it('tells the workspace to reload its groups when they change', async () => {
    const socket = await connect(t, team.member.token);
    const seen: string[] = [];
    socket.on('refresh', (e) => seen.push(e.value));
    await createGroup();
    await eventually(() => seen.includes('groups'));
  });
});
