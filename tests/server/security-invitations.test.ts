// Invitations as a stranger with a workspace of their own would abuse them: a flood of invitations stops
// at the daily limits per person and per workspace (revoking and re-inviting does not reset them), and a
// workspace or inviter name never reaches an e-mail subject.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Institution } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, type TestUser, uniqueEmail } from './harness.ts';

describe.each(databases)('invitation abuse on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: { INVITES_PER_USER_PER_DAY: '5', INVITES_PER_WORKSPACE_PER_DAY: '7' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function workspace(owner: TestUser, name: string) {
    const res = await owner.api.post<{ institution: Institution }>('/api/institutions', { name });
    return res.body.institution.id;
  }
  const invite = (user: TestUser, id: string, emails: string[]) =>
    user.api.post(`/api/institutions/${id}/invited-members`, { emails });

  it('refuses invitations beyond the daily limit per person, even after revoking', async () => {
    const spammer = await t.signUp();
    const id = await workspace(spammer, 'Spam');
    const victims = Array.from({ length: 5 }, () => uniqueEmail('victim'));
    expect((await invite(spammer, id, victims)).status).toBe(200);
    await spammer.api.delete(`/api/institutions/${id}/invited-members`, { emails: victims });

    const refused = await invite(spammer, id, [uniqueEmail('victim')]);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'You can send 5 invitations a day and have reached that. Try again tomorrow.',
    );
    const again = await invite(spammer, id, [victims[0] ?? '']);
    expect(again.status).toBe(429);
  });

  it('refuses invitations beyond the daily limit per workspace, whoever sends them', async () => {
    const owner = await t.signUp();
    const id = await workspace(owner, 'Busy');
    expect(
      (
        await invite(
          owner,
          id,
          Array.from({ length: 4 }, () => uniqueEmail()),
        )
      ).status,
    ).toBe(200);
    // Three more from a second admin fit their own limit of 5 but not the workspace's 7.
    const admin = await t.signUp();
    const invitedAdmin = await invite(owner, id, [admin.user.email]);
    expect(invitedAdmin.status).toBe(200);
    const joined = await admin.api.post<{ member: { id: string } }>(`/api/institutions/${id}/members`);
    const promoted = await owner.api.put(`/api/institutions/${id}/members/${joined.body.member.id}`, {
      role: 'admin',
    });
    expect(promoted.status).toBe(200);
    const refused = await invite(admin, id, [uniqueEmail(), uniqueEmail(), uniqueEmail()]);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/This workspace can send 7 invitations a day/);
    const other = await t.signUp();
    const otherId = await workspace(other, 'Other');
    expect((await invite(other, otherId, [uniqueEmail()])).status).toBe(200);
  });

  it('keeps workspace and inviter names out of the subject', async () => {
    const phisher = await t.signUp();
    await phisher.api.put('/api/users', { name: 'Security team' });
    const id = await workspace(phisher, 'Your password expires: reset at evil.example');
    const target = uniqueEmail('target');
    expect((await invite(phisher, id, [target])).status).toBe(200);

    const file = readdirSync(t.config.mailDir).find((f) => f.includes(`-${target}-`));
    const mail = readFileSync(path.join(t.config.mailDir, file ?? ''), 'utf8');
    const subject = /^Subject: (.*)$/m.exec(mail)?.[1];
    expect(subject).toBe('You are invited to a workspace on Lantern');
    expect(mail.replace(/=\r?\n/g, '')).toContain('Your password expires: reset at evil.example');
  });
});
