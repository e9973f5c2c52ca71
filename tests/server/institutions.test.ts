// Workspaces: creating, listing, renaming, inviting, accepting and declining, and who may do what.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ErrorBody,
  Institution,
  InstitutionWithMember,
  Invitation,
  InvitationWithInstitution,
  JoinedChannels,
  Member,
} from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser, uniqueEmail } from './harness.ts';

interface Created {
  institution: Institution;
  member: Member;
}

describe.each(databases)('workspaces on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function makeWorkspace(owner: TestUser, name = 'Acme') {
    const res = await owner.api.post<Created>('/api/institutions', { name });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** An owner's workspace with a second person who was invited and accepted. */
  async function makeTeam() {
    const owner = await t.signUp();
    const { institution } = await makeWorkspace(owner);
    const member = await t.signUp();
    expect(
      (
        await owner.api.post(`/api/institutions/${institution.id}/invited-members`, {
          emails: [member.user.email],
        })
      ).status,
    ).toBe(200);
    expect((await member.api.post(`/api/institutions/${institution.id}/members`)).status).toBe(200);
    return { owner, member, institution };
  }

  it('creates a workspace with the caller as primary owner, in a default general channel they own', async () => {
    const owner = await t.signUp();
    const { institution, member } = await makeWorkspace(owner, '  Acme Corp ');
    expect(institution.name).toBe('Acme Corp');
    expect(member).toMatchObject({
      role: 'primary_owner',
      institutionId: institution.id,
      email: owner.user.email,
    });

    const joined = await owner.api.get<JoinedChannels>(`/api/institutions/${institution.id}/channels/joined`);
    expect(joined.body.channels).toHaveLength(1);
    const general = joined.body.channels[0]!;
    expect(general).toMatchObject({ name: 'general', type: 'public', isDefault: true, lastSeq: 0 });
    expect(general.defaultRole).toMatchObject({
      name: 'member',
      isDefault: true,
      canPost: true,
      canPinMessage: false,
      canTag: true,
      canAddMembers: false,
      canDeleteMessage: false,
    });
    expect(joined.body.channelMembers[0]).toMatchObject({
      channelId: general.id,
      memberId: member.id,
      unreadCount: 0,
    });
    expect(joined.body.channelMembers[0]!.roles).toHaveLength(1);
  });

  it("lists only the caller's workspaces, each with the caller's member record", async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const one = await makeWorkspace(a, 'One');
    await makeWorkspace(a, 'Two');
    await makeWorkspace(b, 'Theirs');
    const list = await a.api.get<{ data: InstitutionWithMember[] }>('/api/institutions');
    expect(list.body.data.map((i) => i.name)).toEqual(['One', 'Two']);
    expect(list.body.data[0]).toMatchObject({
      id: one.institution.id,
      member: { id: one.member.id, role: 'primary_owner' },
    });
  });

  it('refuses a workspace without a name', async () => {
    const a = await t.signUp();
    const res = await a.api.post('/api/institutions', { name: ' ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Name cannot be empty');
    expect((await a.api.post('/api/institutions', { name: 'x'.repeat(81) })).status).toBe(400);
  });

  it('lets admins rename the workspace, and nobody else', async () => {
    const { owner, member, institution } = await makeTeam();
    const renamed = await owner.api.put<InstitutionWithMember>(`/api/institutions/${institution.id}`, {
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', member: { role: 'primary_owner' } });

    const byMember = await member.api.put(`/api/institutions/${institution.id}`, { name: 'Mine now' });
    expect(byMember.status).toBe(403);
    const stranger = await t.signUp();
    expect((await stranger.api.put(`/api/institutions/${institution.id}`, { name: 'X' })).status).toBe(403);
    const list = await member.api.get<{ data: InstitutionWithMember[] }>('/api/institutions');
    expect(list.body.data[0]?.name).toBe('Renamed');
  });

  it('invites by e-mail with a link to the join page, and the invited person accepts into every default channel', async () => {
    const owner = await t.signUp();
    const { institution } = await makeWorkspace(owner, 'Invite Co');
    const email = uniqueEmail('guest');
    const invited = await owner.api.post<{ data: Invitation[]; skipped: string[] }>(
      `/api/institutions/${institution.id}/invited-members`,
      { emails: [email, email.toUpperCase(), owner.user.email] },
    );
    expect(invited.status).toBe(200);
    expect(invited.body.data.map((i) => i.email)).toEqual([email]);
    expect(invited.body.skipped).toEqual([owner.user.email]);

    const mail = readdirSync(t.config.mailDir).find((f) => f.includes(`-${email}-`));
    expect(mail).toBeDefined();
    const text = readFileSync(path.join(t.config.mailDir, mail!), 'utf8');
    expect(text).toContain('Invite Co');
    expect(text).toContain(`${t.config.PUBLIC_URL}/join`);

    const guest = await t.signUp(email);
    const pending = await guest.api.get<{ data: InvitationWithInstitution[] }>('/api/institutions/invited');
    expect(pending.body.data).toHaveLength(1);
    expect(pending.body.data[0]).toMatchObject({
      institutionId: institution.id,
      institution: { name: 'Invite Co' },
    });

    const accepted = await guest.api.post<Created>(`/api/institutions/${institution.id}/members`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.member).toMatchObject({ role: 'member', email });
    // Accepting twice (a retried request) answers with the same membership.
    const again = await guest.api.post<Created>(`/api/institutions/${institution.id}/members`);
    expect(again.body.member.id).toBe(accepted.body.member.id);

    const joined = await guest.api.get<JoinedChannels>(`/api/institutions/${institution.id}/channels/joined`);
    expect(joined.body.channels.map((c) => c.name)).toEqual(['general']);
    expect((await guest.api.get<{ data: unknown[] }>('/api/institutions/invited')).body.data).toEqual([]);

    const members = await owner.api.get<{ data: Member[] }>(`/api/institutions/${institution.id}/members`);
    expect(members.body.data.map((m) => [m.email, m.role])).toEqual([
      [owner.user.email, 'primary_owner'],
      [email, 'member'],
    ]);
    expect(members.body.data[1]?.user).toEqual({ id: guest.user.id, isOnline: false });
    expect(
      (await owner.api.get<{ data: unknown[] }>(`/api/institutions/${institution.id}/invited-members`)).body
        .data,
    ).toEqual([]);
  });

  it('does not let anyone join without an invitation', async () => {
    const owner = await t.signUp();
    const { institution } = await makeWorkspace(owner);
    const stranger = await t.signUp();
    const res = await stranger.api.post(`/api/institutions/${institution.id}/members`);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/not been invited/);
    expect((await stranger.api.post('/api/institutions/no-such-id/members')).status).toBe(403);
  });

  it('lets an admin list and revoke invitations, after which accepting is refused', async () => {
    const owner = await t.signUp();
    const { institution } = await makeWorkspace(owner);
    const email = uniqueEmail();
    await owner.api.post(`/api/institutions/${institution.id}/invited-members`, { emails: [email] });
    const listed = await owner.api.get<{ data: Invitation[] }>(
      `/api/institutions/${institution.id}/invited-members`,
    );
    expect(listed.body.data.map((i) => i.email)).toEqual([email]);

    const revoked = await owner.api.delete<{ data: Invitation[] }>(
      `/api/institutions/${institution.id}/invited-members`,
      {
        emails: [email],
      },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.map((i) => i.email)).toEqual([email]);
    const person = await t.signUp(email);
    expect((await person.api.get<{ data: unknown[] }>('/api/institutions/invited')).body.data).toEqual([]);
    expect((await person.api.post(`/api/institutions/${institution.id}/members`)).status).toBe(403);
  });

  it('lets the invited person decline, and nobody else decline for them', async () => {
    const owner = await t.signUp();
    const { institution } = await makeWorkspace(owner);
    const person = await t.signUp();
    await owner.api.post(`/api/institutions/${institution.id}/invited-members`, {
      emails: [person.user.email],
    });
    const [invitation] = (
      await person.api.get<{ data: InvitationWithInstitution[] }>('/api/institutions/invited')
    ).body.data;
    expect(invitation).toBeDefined();

    const other = await t.signUp();
    expect((await other.api.delete(`/api/institutions/invited/${invitation!.id}`)).status).toBe(404);
    expect((await person.api.delete(`/api/institutions/invited/${invitation!.id}`)).status).toBe(200);
    expect((await person.api.get<{ data: unknown[] }>('/api/institutions/invited')).body.data).toEqual([]);
    expect((await person.api.post(`/api/institutions/${institution.id}/members`)).status).toBe(403);
  });

  it('keeps invitations and member lists to admins and members', async () => {
    const { member, institution } = await makeTeam();
    const base = `/api/institutions/${institution.id}`;
    expect((await member.api.get(`${base}/invited-members`)).status).toBe(403);
    expect((await member.api.post(`${base}/invited-members`, { emails: [uniqueEmail()] })).status).toBe(403);
    expect((await member.api.delete(`${base}/invited-members`, { emails: [uniqueEmail()] })).status).toBe(
      403,
    );
    expect((await member.api.get<{ data: Member[] }>(`${base}/members`)).body.data).toHaveLength(2);

    const stranger = await t.signUp();
    const res = await stranger.api.get<{ data?: unknown }>(`${base}/members`);
    expect(res.status).toBe(403);
    expect(res.body.data).toBeUndefined();
  });

  it('refuses invitations with bad addresses', async () => {
    const owner = await t.signUp();
    const { institution } = await makeWorkspace(owner);
    const res = await owner.api.post<ErrorBody>(`/api/institutions/${institution.id}/invited-members`, {
      emails: ['nope', 'ada@example.com', 'also wrong'],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Enter a valid e-mail address (number 1 in the list)');
    // A sentence per refused entry, by its path, for the form to show beside each (issue 15 item 4).
    expect(res.body.fields).toEqual({
      'emails.0': 'Enter a valid e-mail address (number 1 in the list)',
      'emails.2': 'Enter a valid e-mail address (number 3 in the list)',
    });
    expect(
      (await owner.api.post(`/api/institutions/${institution.id}/invited-members`, { emails: [] })).status,
    ).toBe(400);
  });
});
