// Deleting one's account (/account-deletion): signed in or with a deletion code mailed to the address.
// Sessions end, the profile goes, messages stay under "Deleted user" or become tombstones, a primary owner
// hands the workspace over first, a confirmation mail is written, and nobody else's data moves.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AccountDeletedResponse,
  AccountDeletionPreview,
  ChangesResponse,
  Member,
  MessagePage,
} from '../../schemas/protocol/index.ts';
import { fileAttachments, files, users } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { makeWorkspace, messagesUrl, restPost, type Workspace } from './messaging-world.ts';
import { addPerson, type Person } from './workspace-world.ts';

describe.each(databases)('account deletion on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every mail written to this address, oldest first, as text. */
  const mailsTo = (email: string) =>
    readdirSync(t.config.mailDir)
      .filter((f) => f.includes(`-${email}-`))
      .sort()
      .map((f) => readFileSync(path.join(t.config.mailDir, f), 'utf8'));

  const deletionCode = (email: string) => {
    const mail = mailsTo(email).findLast((m) => m.includes('account deletion code'));
    const code = mail && /Subject: Your Lantern account deletion code: (\d{6})/.exec(mail)?.[1];
    if (!code) throw new Error(`no deletion code for ${email}`);
    return code;
  };

  const page = async (ws: Workspace, channelId: string) =>
    (await ws.owner.api.get<MessagePage>(`${messagesUrl(ws, channelId)}?limit=100`)).body.data;

  const directory = async (ws: Workspace) =>
    (await ws.owner.api.get<{ data: Member[] }>(`/api/institutions/${ws.id}/members`)).body.data;

  async function world() {
    const ws = await makeWorkspace(t, 'Harbour Ops');
    const leaving = await addPerson(t, ws, 'member');
    const staying = await addPerson(t, ws, 'member');
    const theirs = await restPost(leaving, ws, ws.general.id, '<p>mine</p>');
    const others = await restPost(staying, ws, ws.general.id, '<p>not mine</p>');
    return { ws, leaving, staying, theirs, others };
  }

  it('signed in: sessions end, the profile goes, messages stay under "Deleted user", a mail confirms', async () => {
    const { ws, leaving, staying, theirs, others } = await world();
    const socket = connect(t.url, { auth: { token: leaving.token }, transports: ['websocket'] });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    const preview = await leaving.api.get<AccountDeletionPreview>('/api/users/account-deletion');
    expect(preview.body).toEqual({
      email: leaving.user.email,
      blockingWorkspaces: [],
      soleWorkspaces: [],
      sessions: 1,
    });

    const res = await leaving.api.delete<AccountDeletedResponse>('/api/users', { messages: 'keep' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, deletedWorkspaces: [] });
    await closed;
    socket.disconnect();

    expect((await leaving.api.get('/api/users')).status).toBe(401);
    expect(await t.ctx.db.select().from(users).where(eq(users.id, leaving.user.id))).toEqual([]);
    // Gone from the directory, kept as an author the clients name "Deleted user".
    expect((await directory(ws)).map((m) => m.id)).not.toContain(leaving.memberId);
    const deleted = await staying.api.get<{ data: string[] }>(`/api/institutions/${ws.id}/deleted-members`);
    expect(deleted.body.data).toEqual([leaving.memberId]);
    const messages = await page(ws, ws.general.id);
    expect(messages.find((m) => m.id === theirs.id)).toMatchObject({
      memberId: leaving.memberId,
      content: '<p>mine</p>',
      deletedAt: null,
    });
    expect(messages.find((m) => m.id === others.id)).toMatchObject({ content: '<p>not mine</p>' });
    expect((await staying.api.get('/api/users')).status).toBe(200);

    const confirmation = mailsTo(leaving.user.email).at(-1) ?? '';
    expect(confirmation).toContain('Subject: Your Lantern account was deleted');
    expect(confirmation).toContain('under "Deleted user"');

    // The address is free again: signing in creates a new, empty account.
    const again = await t.signUp(leaving.user.email);
    expect(again.user.id).not.toBe(leaving.user.id);
  });

  it('removes the messages when the person chooses so, and only theirs', async () => {
    const { ws, leaving, theirs, others } = await world();
    const before = await page(ws, ws.general.id);
    const res = await leaving.api.delete<AccountDeletedResponse>('/api/users', { messages: 'remove' });
    expect(res.status).toBe(200);
    const after = await page(ws, ws.general.id);
    expect(after.map((m) => m.id)).not.toContain(theirs.id);
    expect(after.find((m) => m.id === others.id)).toEqual(before.find((m) => m.id === others.id));
    // Clients catching up learn of it: the tombstone comes with a change sequence after everything they had.
    const maxSeq = Math.max(...before.map((m) => m.seq));
    const changes = await ws.owner.api.get<ChangesResponse>(
      `${messagesUrl(ws, ws.general.id)}/changes?after=${maxSeq}`,
    );
    expect(changes.body.data).toHaveLength(1);
    expect(changes.body.data[0]).toMatchObject({ id: theirs.id, content: '', attachments: [] });
    expect(changes.body.data[0]?.deletedAt).not.toBeNull();
    expect(mailsTo(leaving.user.email).at(-1)).toContain('Your messages were removed');
  });

  it('removes the files no remaining message carries and keeps the ones in kept messages', async () => {
    const { ws, leaving, theirs } = await world();
    const fileRow = (id: string) => ({
      id,
      institutionId: ws.id,
      channelId: ws.general.id,
      memberId: leaving.memberId,
      fileKey: `k-${id}`,
      fileName: 'a.png',
      fileType: 'image/png',
      fileSize: 10,
      isUploading: false,
    });
    const draft = randomUUID();
    const posted = randomUUID();
    await t.ctx.db.insert(files).values([fileRow(draft), fileRow(posted)]);
    await t.ctx.db
      .insert(fileAttachments)
      .values({ fileId: posted, messageId: theirs.id, channelId: ws.general.id });

    expect((await leaving.api.delete('/api/users', { messages: 'keep' })).status).toBe(200);
    const left = await t.ctx.db
      .select({ id: files.id })
      .from(files)
      .where(eq(files.memberId, leaving.memberId));
    expect(left.map((f) => f.id)).toEqual([posted]);
  });

  it('signed out: a deletion code mailed to the address; a wrong code or a sign-in code deletes nothing', async () => {
    const { ws, leaving } = await world();
    const anon = t.api();
    const email = leaving.user.email;

    expect((await anon.post('/api/auth/account-deletion/code', { email })).status).toBe(200);
    const code = deletionCode(email);
    const wrong = code === '000000' ? '000001' : '000000';
    const refused = await anon.post('/api/auth/account-deletion', { email, code: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Wrong code. Check the latest e-mail and try again.');
    expect((await leaving.api.get('/api/users')).status).toBe(200);

    // A deletion code does not sign in, and a sign-in code does not delete.
    expect((await anon.post('/api/auth/signin', { email, code })).status).toBe(400);
    await anon.get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
    const signinCode = t.lastCode(email);
    expect((await anon.post('/api/auth/account-deletion', { email, code: signinCode })).status).toBe(400);
    expect((await leaving.api.get('/api/users')).status).toBe(200);

    await anon.post('/api/auth/account-deletion/code', { email });
    const res = await anon.post<AccountDeletedResponse>('/api/auth/account-deletion', {
      email,
      code: deletionCode(email),
      messages: 'keep',
    });
    expect(res.status).toBe(200);
    expect((await leaving.api.get('/api/users')).status).toBe(401);
    expect((await directory(ws)).map((m) => m.id)).not.toContain(leaving.memberId);
  });

  it('says nothing about whether an address has an account, and mails no code to one without', async () => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const res = await t.api().post('/api/auth/account-deletion/code', { email });
    expect(res.status).toBe(200);
    expect(mailsTo(email)).toEqual([]);
    const bad = await t.api().post('/api/auth/account-deletion/code', { email: 'not an address' });
    expect(bad.status).toBe(400);
  });

  it('refuses a primary owner with a sentence until the workspace is handed over to an admin', async () => {
    const { ws, staying } = await world();
    const owner = ws.owner;
    const preview = await owner.api.get<AccountDeletionPreview>('/api/users/account-deletion');
    expect(preview.body.blockingWorkspaces).toEqual([{ id: ws.id, name: 'Harbour Ops' }]);

    const refused = await owner.api.delete('/api/users', { messages: 'keep' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'You are the primary owner of “Harbour Ops”. Hand it over to another admin in its Settings first, then delete your account.',
    );
    expect((await owner.api.get('/api/users')).status).toBe(200);
    expect((await directory(ws)).length).toBeGreaterThan(1);

    // Only the primary owner hands over, and only to an owner or admin.
    const handOver = `/api/institutions/${ws.id}/primary-owner`;
    const admin: Person = await addPerson(t, ws, 'admin');
    expect((await admin.api.put(handOver, { memberId: admin.memberId })).status).toBe(403);
    const toMember = await owner.api.put(handOver, { memberId: staying.memberId });
    expect(toMember.status).toBe(400);
    expect(toMember.body.message).toBe(
      'Make this person an admin first: only an owner or admin can take the workspace over',
    );
    expect((await owner.api.put(handOver, { memberId: admin.memberId })).status).toBe(200);
    const roles = new Map((await directory(ws)).map((m) => [m.user.id, m.role]));
    expect(roles.get(admin.user.id)).toBe('primary_owner');
    expect(roles.get(owner.user.id)).toBe('owner');

    expect((await owner.api.delete('/api/users', { messages: 'keep' })).status).toBe(200);
    const members = await admin.api.get<{ data: Member[] }>(`/api/institutions/${ws.id}/members`);
    expect(members.body.data.map((m) => m.user.id)).not.toContain(owner.user.id);
  });

  it('hands a channel the person alone owned to its longest-standing person, not to an agent', async () => {
    const { ws, leaving, staying } = await world();
    const agent = await ws.owner.api.post<{ agent: { id: string } }>(`/api/institutions/${ws.id}/agents`, {
      name: 'Minutes',
    });
    const created = await leaving.api.post<{ channel: { id: string } }>(
      `/api/institutions/${ws.id}/channels`,
      {
        name: 'harbour-log',
        type: 'public',
      },
    );
    const roomUrl = `/api/institutions/${ws.id}/channels/${created.body.channel.id}`;
    // The agent is in the channel before the person who stays.
    expect(
      (await leaving.api.post(`${roomUrl}/members/add`, { members: [agent.body.agent.id] })).status,
    ).toBe(200);
    expect((await staying.api.post(`${roomUrl}/members`)).status).toBe(200);

    expect((await leaving.api.delete('/api/users', { messages: 'keep' })).status).toBe(200);
    expect((await staying.api.put(roomUrl, { name: 'harbour-log-2026' })).status).toBe(200);
  });

  it('deletes a workspace nobody else is in together with the account', async () => {
    const solo = await makeWorkspace(t, 'Just Me');
    const agent = await solo.owner.api.post(`/api/institutions/${solo.id}/agents`, { name: 'Helper' });
    expect(agent.status).toBe(201);
    const agentUserIds = async () =>
      (await t.ctx.db.select({ id: users.id }).from(users).where(like(users.email, 'agent-%'))).map(
        (u) => u.id,
      );
    const agentsBefore = await agentUserIds();
    const preview = await solo.owner.api.get<AccountDeletionPreview>('/api/users/account-deletion');
    expect(preview.body.soleWorkspaces).toEqual([{ id: solo.id, name: 'Just Me' }]);
    const res = await solo.owner.api.delete<AccountDeletedResponse>('/api/users', { messages: 'keep' });
    expect(res.body.deletedWorkspaces).toEqual([{ id: solo.id, name: 'Just Me' }]);
    const someone = await t.signUp();
    expect((await someone.api.get(`/api/institutions/${solo.id}/members`)).status).toBe(403);
    // The workspace's agent, a user row of its own, went with it.
    expect((await agentUserIds()).length).toBe(agentsBefore.length - 1);
  });

  it('gives strangers nothing: no session, no workspace, no one else’s account', async () => {
    const { ws, leaving } = await world();
    expect((await t.api().delete('/api/users', { messages: 'keep' })).status).toBe(401);
    const outsider = await t.signUp();
    expect((await outsider.api.get(`/api/institutions/${ws.id}/deleted-members`)).status).toBe(403);
    // Deleting is always the caller's own account: the outsider's goes, the member's stays.
    expect((await outsider.api.delete('/api/users', { messages: 'remove' })).status).toBe(200);
    expect((await leaving.api.get('/api/users')).status).toBe(200);
    expect(
      (await t.api().post('/api/auth/account-deletion', { email: leaving.user.email, code: 'abc' })).status,
    ).toBe(400);
  });
});
