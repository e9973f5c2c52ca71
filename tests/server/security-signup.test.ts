// The operator decides who may sign up and who may create workspaces (SIGNUP, WORKSPACE_CREATION): a
// stranger outside the policy gets a clear 403 and no mail; people with an account always sign in.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';

const requestCode = (t: TestServer, email: string) =>
  t.api().get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
const mailsTo = (t: TestServer, email: string) =>
  readdirSync(t.config.mailDir).filter((f) => f.includes(`-${email}-`)).length;

describe.each(databases)('SIGNUP and WORKSPACE_CREATION on %s', (kind) => {
  const admin = `boss-${Date.now()}@corp.example`;
  // Listed in capitals: the setting is compared without case, like addresses themselves.
  const listed = admin.toUpperCase();
  let open: TestServer;
  let domains: TestServer;
  let inviteOnly: TestServer;
  beforeAll(async () => {
    open = await startTestServer(kind);
    domains = await startTestServer(kind, {
      env: { SIGNUP: 'corp.example, partner.example', WORKSPACE_CREATION: listed },
    });
    inviteOnly = await startTestServer(kind, { env: { SIGNUP: 'invite-only' } });
  });
  afterAll(async () => {
    await Promise.all([open?.close(), domains?.close(), inviteOnly?.close()]);
  });

  it('keeps sign-up and workspace creation open by default', async () => {
    const stranger = await open.signUp(uniqueEmail('anyone'));
    expect((await stranger.api.post('/api/institutions', { name: 'Mine' })).status).toBe(201);
  });

  it('refuses a code to an address outside the SIGNUP domains, with a sentence and no mail', async () => {
    const email = uniqueEmail('stranger');
    const res = await requestCode(domains, email);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/limited to certain e-mail domains/);
    expect(mailsTo(domains, email)).toBe(0);
    expect((await domains.signUp(`ada-${Date.now()}@partner.example`)).user.email).toMatch(/partner/);
  });

  it('lets only WORKSPACE_CREATION addresses create a workspace', async () => {
    const colleague = await domains.signUp(`col-${Date.now()}@corp.example`);
    const refused = await colleague.api.post('/api/institutions', { name: 'Shadow IT' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Creating workspaces on this server is limited/);

    const boss = await domains.signUp(admin);
    expect((await boss.api.post('/api/institutions', { name: 'Corp' })).status).toBe(201);
  });

  it('with invite-only, refuses strangers but admits an invited address, and existing users always', async () => {
    const stranger = uniqueEmail('stranger');
    const refused = await requestCode(inviteOnly, stranger);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/by invitation only/);

    // The first user of an invite-only server is created by the operator; here, directly in the database
    // through the same code path a sign-in takes once an invitation exists.
    const { findOrCreateUser } = await import('../../server/services/users.ts');
    const founderEmail = uniqueEmail('founder');
    await findOrCreateUser(inviteOnly.ctx.db, founderEmail);
    const founder = await inviteOnly.signUp(founderEmail);
    const ws = await founder.api.post<{ institution: { id: string } }>('/api/institutions', { name: 'Club' });
    const guest = uniqueEmail('guest');
    await founder.api.post(`/api/institutions/${ws.body.institution.id}/invited-members`, {
      emails: [guest],
    });
    const joined = await inviteOnly.signUp(guest);
    expect(joined.user.email).toBe(guest);
  });
});
