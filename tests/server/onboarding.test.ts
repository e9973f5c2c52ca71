// The first minutes in a workspace (issue 15 items 3 and 8, decision 0045): the caller's own membership
// (PUT /api/institutions/{id}/members), the getting-started checklist that ticks from what really
// happened, and the shareable invite link an admin manages and anyone signed in can open.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  InviteLinkPreview,
  InviteLinkResponse,
  JoinedChannels,
  Member,
  OwnMembershipResponse,
  WorkspaceChecklist,
} from '../../schemas/protocol/index.ts';
import { inviteLinks } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';
import { makeChannel, makeWorkspace, restPost } from './messaging-world.ts';
import { makeTeam, type Team } from './workspace-world.ts';

describe.each(databases)('onboarding on %s', (kind) => {
  let t: TestServer;
  let team: Team;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { PUBLIC_URL: 'https://chat.example.org' } });
    team = await makeTeam(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const ownUrl = (id: string) => `/api/institutions/${id}/members`;
  const checklistUrl = (id: string) => `/api/institutions/${id}/checklist`;
  const linkUrl = (id: string) => `/api/institutions/${id}/invite-link`;

  describe('PUT /api/institutions/{id}/members (own membership)', () => {
    it('puts the checklist away for the caller in that workspace only, and brings it back', async () => {
      const { ws, member } = team;
      const res = await member.api.put<OwnMembershipResponse>(ownUrl(ws.id), { checklistDismissed: true });
      expect(res.status).toBe(200);
      expect(res.body.member).toMatchObject({ id: member.memberId, role: 'member' });
      expect(res.body.checklist.dismissed).toBe(true);
      expect((await member.api.get<WorkspaceChecklist>(checklistUrl(ws.id))).body.dismissed).toBe(true);
      // The owner's own checklist is untouched.
      expect((await ws.owner.api.get<WorkspaceChecklist>(checklistUrl(ws.id))).body.dismissed).toBe(false);
      const back = await member.api.put<OwnMembershipResponse>(ownUrl(ws.id), { checklistDismissed: false });
      expect(back.body.checklist.dismissed).toBe(false);
    });

    it('refuses someone who is not a member with 403', async () => {
      const res = await team.outsider.api.put(ownUrl(team.ws.id), { checklistDismissed: true });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You are not a member of this workspace');
      const stranger = await team.stranger.api.put(ownUrl(team.ws.id), { checklistDismissed: true });
      expect(stranger.status).toBe(403);
    });

    it('refuses bad bodies with 400 and a sentence, never 500', async () => {
      for (const body of [
        {},
        { checklistDismissed: 'yes' },
        { checklistDismissed: true, role: 'owner' },
        [],
        'true',
        null,
      ]) {
        const res = await team.member.api.put(ownUrl(team.ws.id), body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toMatch(/true or false|can be changed here/);
        expect(res.body.message).not.toMatch(/expected|invalid_type|Required/i);
      }
      // A role cannot be smuggled in: the member is still a member.
      const me = await team.member.api.get<{ data: { id: string; role: string }[] }>(ownUrl(team.ws.id));
      expect(me.body.data.find((m) => m.id === team.member.memberId)?.role).toBe('member');
    });
  });

  describe('the checklist', () => {
    it('ticks invite, channel and hello from what happened, for each person', async () => {
      const ws = await makeWorkspace(t, 'Fresh');
      const fresh = await ws.owner.api.get<WorkspaceChecklist>(checklistUrl(ws.id));
      expect(fresh.body).toEqual({
        invitePeople: false,
        createChannel: false,
        sayHello: false,
        dismissed: false,
      });

      await ws.owner.api.post(`/api/institutions/${ws.id}/invited-members`, { emails: [uniqueEmail()] });
      await makeChannel(ws.owner, ws);
      await restPost(ws.owner, ws, ws.general.id, '<p>Hello everyone</p>');
      const done = await ws.owner.api.get<WorkspaceChecklist>(checklistUrl(ws.id));
      expect(done.body).toEqual({
        invitePeople: true,
        createChannel: true,
        sayHello: true,
        dismissed: false,
      });
    });

    it('counts a shared invite link as inviting people, and is for members only', async () => {
      const ws = await makeWorkspace(t, 'Linked');
      await ws.owner.api.post(linkUrl(ws.id), { expiresInDays: 7 });
      expect((await ws.owner.api.get<WorkspaceChecklist>(checklistUrl(ws.id))).body.invitePeople).toBe(true);
      expect((await team.outsider.api.get(checklistUrl(ws.id))).status).toBe(403);
    });
  });

  describe('invite links', () => {
    it('lets an admin create one that anyone signed in opens, sees the workspace and joins', async () => {
      const { ws, admin } = team;
      const created = await admin.api.post<InviteLinkResponse>(linkUrl(ws.id), { expiresInDays: 7 });
      expect(created.status).toBe(201);
      const link = created.body.link;
      if (!link) throw new Error('no link');
      expect(link.url).toBe(`https://chat.example.org/join?invite=${link.token}`);
      const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThanOrEqual(7);
      expect((await ws.owner.api.get<InviteLinkResponse>(linkUrl(ws.id))).body.link?.token).toBe(link.token);

      const newcomer = await t.signUp();
      const preview = await newcomer.api.get<InviteLinkPreview>(`/api/invite-links/${link.token}`);
      expect(preview.status).toBe(200);
      expect(preview.body.institution).toEqual({ id: ws.id, name: 'Acme' });
      expect(preview.body.isMember).toBe(false);
      expect(preview.body.inviterName).toBe(admin.user.name);

      const joined = await newcomer.api.post<{ member: Member }>(`/api/invite-links/${link.token}`);
      expect(joined.status).toBe(200);
      expect(joined.body.member.role).toBe('member');
      const channels = await newcomer.api.get<JoinedChannels>(`/api/institutions/${ws.id}/channels/joined`);
      expect(channels.body.channels.some((c) => c.id === ws.general.id)).toBe(true);
      // Opening it again is harmless and says they are in.
      const again = await newcomer.api.get<InviteLinkPreview>(`/api/invite-links/${link.token}`);
      expect(again.body.isMember).toBe(true);
      expect((await newcomer.api.post(`/api/invite-links/${link.token}`)).status).toBe(200);
    });

    it('lets only admins see, create or revoke it', async () => {
      const { ws, member, guest, outsider, stranger } = team;
      for (const who of [member, guest, outsider, stranger]) {
        expect((await who.api.get(linkUrl(ws.id))).status).toBe(403);
        expect((await who.api.post(linkUrl(ws.id), { expiresInDays: 1 })).status).toBe(403);
        expect((await who.api.delete(linkUrl(ws.id))).status).toBe(403);
      }
      const refused = await member.api.post(linkUrl(ws.id), { expiresInDays: 1 });
      expect(refused.body.message).toBe('Only workspace owners and admins can do that');
    });

    it('stops working once revoked or regenerated', async () => {
      const { ws, owner } = team;
      const first = (await owner.api.post<InviteLinkResponse>(linkUrl(ws.id), { expiresInDays: 1 })).body
        .link;
      const second = (await owner.api.post<InviteLinkResponse>(linkUrl(ws.id), { expiresInDays: 30 })).body
        .link;
      if (!first || !second) throw new Error('no link');
      expect(second.token).not.toBe(first.token);
      const someone = await t.signUp();
      const old = await someone.api.post(`/api/invite-links/${first.token}`);
      expect(old.status).toBe(404);
      expect(old.body.message).toMatch(/^This invite link is no longer valid/);

      expect((await owner.api.delete(linkUrl(ws.id))).status).toBe(200);
      expect((await owner.api.get<InviteLinkResponse>(linkUrl(ws.id))).body.link).toBeNull();
      expect((await someone.api.get(`/api/invite-links/${second.token}`)).status).toBe(404);
      expect((await someone.api.post(`/api/invite-links/${second.token}`)).status).toBe(404);
      const mine = await someone.api.get<{ data: unknown[] }>('/api/institutions');
      expect(mine.body.data).toEqual([]);
    });

    it('stops working once expired', async () => {
      const ws = await makeWorkspace(t, 'Expiring');
      const link = (await ws.owner.api.post<InviteLinkResponse>(linkUrl(ws.id), { expiresInDays: 1 })).body
        .link;
      if (!link) throw new Error('no link');
      // Time passes: the link's day is over.
      await t.ctx.db
        .update(inviteLinks)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(inviteLinks.token, link.token));
      const someone = await t.signUp();
      expect((await someone.api.post(`/api/invite-links/${link.token}`)).status).toBe(404);
      expect((await ws.owner.api.get<InviteLinkResponse>(linkUrl(ws.id))).body.link).toBeNull();
    });

    it('answers a made-up or malformed token as invalid, and needs a signed-in caller', async () => {
      const someone = await t.signUp();
      const madeUp = 'A'.repeat(43);
      expect((await someone.api.get(`/api/invite-links/${madeUp}`)).status).toBe(404);
      expect((await someone.api.post(`/api/invite-links/${madeUp}`)).status).toBe(404);
      for (const bad of ['short', `${'x'.repeat(43)}!`, 'y'.repeat(100)]) {
        const res = await someone.api.post(`/api/invite-links/${encodeURIComponent(bad)}`);
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/This invite link is not valid/);
      }
      expect((await t.api().get(`/api/invite-links/${madeUp}`)).status).toBe(401);
    });

    it('refuses a lifetime other than 1, 7 or 30 days', async () => {
      for (const body of [{}, { expiresInDays: 365 }, { expiresInDays: '7' }, { expiresInDays: -1 }]) {
        const res = await team.owner.api.post(linkUrl(team.ws.id), body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toMatch(/A link lasts 1, 7 or 30 days/);
      }
    });
  });

  it('mails invitations naming the inviter and the workspace, linking to PUBLIC_URL', async () => {
    const address = uniqueEmail('invitee');
    await team.admin.api.post(`/api/institutions/${team.ws.id}/invited-members`, { emails: [address] });
    const file = readdirSync(t.config.mailDir).find((f) => f.includes(`-${address}-`));
    if (!file) throw new Error('no invitation mail');
    const mail = readFileSync(path.join(t.config.mailDir, file), 'utf8');
    expect(mail).toContain(`"${team.admin.user.name}" invited you to join the workspace "Acme"`);
    expect(mail).toContain('https://chat.example.org/join');
  });
});
