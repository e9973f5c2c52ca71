// The workspace settings screen's server side (decision 0054): an admin resends an open invitation's
// e-mail (admins only, within the daily invitation budget, a revoked one is gone), sees who invited, and
// makes public channels default (everyone is put in, present and future) or not; #general stays default,
// private channels cannot be default, and only admins create a default channel.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Channel,
  ChannelMember,
  Institution,
  JoinedChannels,
  Member,
  WorkspaceInvitation,
} from '../../schemas/protocol/index.ts';

type ChannelWithMembership = { channel: Channel; channelMember: ChannelMember };

import { databases, startTestServer, type TestServer, type TestUser, uniqueEmail } from './harness.ts';

describe.each(databases)('workspace settings on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { INVITES_PER_USER_PER_DAY: '4' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const mailsTo = (email: string) => readdirSync(t.config.mailDir).filter((f) => f.includes(`-${email}-`));

  async function workspace(owner: TestUser) {
    const res = await owner.api.post<{ institution: Institution; member: Member }>('/api/institutions', {
      name: 'Settings Co',
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function join(owner: TestUser, id: string, person?: TestUser) {
    const who = person ?? (await t.signUp());
    await owner.api.post(`/api/institutions/${id}/invited-members`, { emails: [who.user.email] });
    const joined = await who.api.post<{ member: Member }>(`/api/institutions/${id}/members`);
    expect(joined.status).toBe(200);
    return { user: who, member: joined.body.member };
  }

  const joinedNames = async (user: TestUser, id: string) =>
    (await user.api.get<JoinedChannels>(`/api/institutions/${id}/channels/joined`)).body.channels
      .filter((c) => c.type !== 'direct_message')
      .map((c) => c.name)
      .sort();

  it('lets admins set and remove the workspace picture, which every member sees, and refuses what is not one', async () => {
    const owner = await t.signUp();
    const { institution } = await workspace(owner);
    const { user: member } = await join(owner, institution.id);
    const picture = `data:image/webp;base64,${Buffer.from('a small picture').toString('base64')}`;
    const url = `/api/institutions/${institution.id}`;
    const pictureOf = async (who: TestUser) =>
      (await who.api.get<{ data: Institution[] }>('/api/institutions')).body.data.find(
        (i) => i.id === institution.id,
      )?.picture;

    const set = await owner.api.put<Institution>(url, { picture });
    expect(set.status).toBe(200);
    expect(set.body.picture).toBe(picture);
    expect(set.body.name).toBe('Settings Co');
    expect(await pictureOf(member)).toBe(picture);

    // A member may not; what is not a small image is refused by field, and nothing stored changes.
    expect((await member.api.put(url, { picture: null })).status).toBe(403);
    for (const bad of [
      'https://example.com/logo.png',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html;base64,PGgxPg==',
      `data:image/png;base64,${'A'.repeat(3000)}`,
    ]) {
      const refused = await owner.api.put<{ message: string; fields?: Record<string, string> }>(url, {
        picture: bad,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.fields?.picture).toMatch(/picture/i);
    }
    expect((await owner.api.put<{ message: string }>(url, {})).body.message).toBe(
      'Give a new name or picture',
    );
    expect(await pictureOf(member)).toBe(picture);

    // A new name keeps the picture; null removes it.
    expect((await owner.api.put<Institution>(url, { name: 'Harbour Co' })).body.picture).toBe(picture);
    expect((await owner.api.put<Institution>(url, { picture: null })).body.picture).toBeNull();
    expect(await pictureOf(member)).toBeNull();
  });

  it('resends an invitation e-mail to admins only, names the inviter, and counts against the daily budget', async () => {
    const owner = await t.signUp();
    const { institution, member: ownerMember } = await workspace(owner);
    const email = uniqueEmail('invitee');
    const invited = await owner.api.post<{ data: WorkspaceInvitation[] }>(
      `/api/institutions/${institution.id}/invited-members`,
      { emails: [email] },
    );
    const invitation = invited.body.data[0]!;
    expect(invitation.invitedBy).toBe(ownerMember.id);
    const listed = await owner.api.get<{ data: WorkspaceInvitation[] }>(
      `/api/institutions/${institution.id}/invited-members`,
    );
    expect(listed.body.data).toEqual([invitation]);
    expect(mailsTo(email)).toHaveLength(1);

    const resendUrl = `/api/institutions/${institution.id}/invited-members/${invitation.id}/resend`;
    const resent = await owner.api.post<{ invitation: WorkspaceInvitation }>(resendUrl);
    expect(resent.status).toBe(200);
    expect(resent.body.invitation).toEqual(invitation);
    expect(mailsTo(email)).toHaveLength(2);

    // A plain member may not resend, nor may someone outside the workspace.
    const { user: plain } = await join(owner, institution.id);
    expect((await plain.api.post(resendUrl)).status).toBe(403);
    expect((await (await t.signUp()).api.post(resendUrl)).status).toBe(403);
    expect(mailsTo(email)).toHaveLength(2);

    // The budget of 4 a day: the first invitation, the plain member's and the resend used 3.
    expect((await owner.api.post(resendUrl)).status).toBe(200);
    const refused = await owner.api.post(resendUrl);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'You can send 4 invitations a day and have reached that. Try again tomorrow.',
    );

    // A revoked invitation cannot be resent.
    await owner.api.delete(`/api/institutions/${institution.id}/invited-members`, { emails: [email] });
    const gone = await owner.api.post(resendUrl);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('This invitation has been accepted or revoked');
  });

  it('makes a public channel default for everyone present and future, and not default again', async () => {
    const owner = await t.signUp();
    const { institution } = await workspace(owner);
    const { user: early } = await join(owner, institution.id);
    const created = await owner.api.post<ChannelWithMembership>(
      `/api/institutions/${institution.id}/channels`,
      { name: 'announcements' },
    );
    const channelId = created.body.channel.id;
    expect(await joinedNames(early, institution.id)).toEqual(['general']);

    // A plain member cannot make it default.
    const url = `/api/institutions/${institution.id}/channels/${channelId}/default`;
    expect((await early.api.put(url, { isDefault: true })).status).toBe(403);

    const made = await owner.api.put<{ channel: Channel }>(url, { isDefault: true });
    expect(made.status).toBe(200);
    expect(made.body.channel.isDefault).toBe(true);
    expect(await joinedNames(early, institution.id)).toEqual(['announcements', 'general']);
    const { user: late } = await join(owner, institution.id);
    expect(await joinedNames(late, institution.id)).toEqual(['announcements', 'general']);
    // Nobody leaves a default channel.
    expect(
      (await late.api.delete(`/api/institutions/${institution.id}/channels/${channelId}/members`)).status,
    ).toBe(400);

    const undone = await owner.api.put<{ channel: Channel }>(url, { isDefault: false });
    expect(undone.body.channel.isDefault).toBe(false);
    // Its members stay; the next one to join is not put in it.
    expect(await joinedNames(early, institution.id)).toEqual(['announcements', 'general']);
    const { user: later } = await join(owner, institution.id);
    expect(await joinedNames(later, institution.id)).toEqual(['general']);
  });

  it('keeps #general default and refuses private channels and bad bodies, in a sentence', async () => {
    const owner = await t.signUp();
    const { institution } = await workspace(owner);
    const joined = await owner.api.get<JoinedChannels>(`/api/institutions/${institution.id}/channels/joined`);
    const general = joined.body.channels[0]!;
    const base = `/api/institutions/${institution.id}/channels`;

    const keep = await owner.api.put(`${base}/${general.id}/default`, { isDefault: false });
    expect(keep.status).toBe(400);
    expect(keep.body.message).toBe('#general stays a default channel, so everyone has one place in common');

    const secret = await owner.api.post<ChannelWithMembership>(base, { name: 'secret', type: 'private' });
    const refused = await owner.api.put(`${base}/${secret.body.channel.id}/default`, { isDefault: true });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Only public channels can be default channels');

    expect((await owner.api.put(`${base}/${general.id}/default`, { isDefault: 'yes' })).status).toBe(400);
    expect((await owner.api.put(`${base}/${crypto.randomUUID()}/default`, { isDefault: true })).status).toBe(
      404,
    );
  });

  it('creates a default channel that every member is in, for admins only', async () => {
    const owner = await t.signUp();
    const { institution } = await workspace(owner);
    const { user: plain } = await join(owner, institution.id);
    const base = `/api/institutions/${institution.id}/channels`;

    const refused = await plain.api.post(base, { name: 'mine', isDefault: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only workspace owners and admins can create default channels');
    expect(
      (await owner.api.post(base, { name: 'hidden', type: 'private', isDefault: true })).body.message,
    ).toBe('Only public channels can be default channels');

    const created = await owner.api.post<ChannelWithMembership>(base, { name: 'handbook', isDefault: true });
    expect(created.status).toBe(201);
    expect(created.body.channel.isDefault).toBe(true);
    expect(await joinedNames(plain, institution.id)).toEqual(['general', 'handbook']);
    const { user: late } = await join(owner, institution.id);
    expect(await joinedNames(late, institution.id)).toEqual(['general', 'handbook']);
  });
});
