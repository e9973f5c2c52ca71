// Sign-in by e-mail code and the session rules every other route relies on.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, SigninResponse, User } from '../../schemas/protocol/index.ts';
import { signinCodes } from '../../server/db/schema.ts';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';

describe.each(databases)('sign-in on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const requestCode = (email: string) =>
    t.api().get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
  const signIn = (email: string, code: string) =>
    t.api().post<SigninResponse & Partial<ErrorBody>>('/api/auth/signin', { email, code });
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it('mails a six-digit code and trades it for a token and a new user named after the address', async () => {
    const email = uniqueEmail('ada');
    expect((await requestCode(email)).status).toBe(200);
    const code = t.lastCode(email);
    expect(code).toMatch(/^\d{6}$/);

    const res = await signIn(email, code);
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.user).toMatchObject({ email, name: email.split('@')[0], profileImage: null });

    const me = await t.api(res.body.accessToken).get<User>('/api/users');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(res.body.user.id);
  });

  it('signs the same person in again as the same user, with the address in any case', async () => {
    const email = uniqueEmail('bob');
    const first = await t.signUp(email);
    await requestCode(email.toUpperCase());
    const again = await signIn(` ${email.toUpperCase()} `, t.lastCode(email));
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(first.user.id);
    expect(again.body.accessToken).not.toBe(first.token);
  });

  it('refuses a wrong code with a clear message and accepts the right one afterwards', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const code = t.lastCode(email);
    const bad = await signIn(email, wrong(code));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, message: expect.stringMatching(/wrong code/i) });
    expect((await signIn(email, code)).status).toBe(200);
  });

  it('does not accept a code twice', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const code = t.lastCode(email);
    expect((await signIn(email, code)).status).toBe(200);
    const again = await signIn(email, code);
    expect(again.status).toBe(400);
  });

  it('refuses an expired code', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    await t.ctx.db
      .update(signinCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signinCodes.email, email));
    const res = await signIn(email, t.lastCode(email));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: expect.stringMatching(/expired/i) });
  });

  it('keeps the code valid after wrong guesses; beyond five, each guess must wait', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const code = t.lastCode(email);
    for (let i = 0; i < 5; i++) expect((await signIn(email, wrong(code))).status).toBe(400);
    const waiting = await signIn(email, code);
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('1');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await signIn(email, code)).status).toBe(200);
  });

  it('refuses a code for an address that never asked for one', async () => {
    const res = await signIn(uniqueEmail(), '123456');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/request a new code/i);
  });

  it('answers bad input with 400 and a message naming the field', async () => {
    const noEmail = await t.api().get('/api/auth/signin_otp?email=not-an-address');
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.message).toBe('Enter a valid e-mail address');

    const shortCode = await t.api().post('/api/auth/signin', { email: uniqueEmail(), code: '12' });
    expect(shortCode.status).toBe(400);
    expect(shortCode.body.message).toBe('The code is 6 digits');

    const notJson = await t.api().post('/api/auth/signin', '{"email":');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });

    const noBody = await t.api().post('/api/auth/signin');
    expect(noBody.status).toBe(400);
  });

  it('refuses a body that is far too large with 413', async () => {
    const res = await t.api().post('/api/auth/signin', { email: 'a@b.co', code: '1'.repeat(2_000_000) });
    expect(res.status).toBe(413);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('answers 401 "session invalid" without a token, with a made-up one, and after logout', async () => {
    expect((await t.api().get('/api/users')).body).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'session invalid',
      requestId: expect.any(String),
    });
    expect((await t.api('made-up-token').get('/api/users')).status).toBe(401);
    expect((await t.api().get('/api/institutions')).status).toBe(401);

    const { api, token } = await t.signUp();
    const other = await t.signUp();
    expect((await api.put('/api/users/logout')).status).toBe(200);
    expect((await t.api(token).get('/api/users')).status).toBe(401);
    // Only that session ends: the person's other sessions and other people carry on.
    expect((await other.api.get('/api/users')).status).toBe(200);
  });

  it('lets a client that always sends a JSON content type log out without a body', async () => {
    const { token } = await t.signUp();
    const res = await fetch(new URL('/api/users/logout', t.url), {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const { api } = await t.signUp();
    const res = await api.get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe.each(databases)('sign-in code rate limits on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { env: { OTP_PER_EMAIL_PER_HOUR: '3', OTP_PER_IP_PER_HOUR: '5' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const requestCode = (email: string) =>
    t.api().get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);

  it('limits code requests per address, then per client IP, with 429 and a message', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 3; i++) expect((await requestCode(email)).status).toBe(200);
    const perAddress = await requestCode(email);
    expect(perAddress.status).toBe(429);
    expect(perAddress.body.message).toMatch(/too many codes requested for this address/i);

    // Three requests so far from this IP (the refused one is not counted): two more are allowed.
    expect((await requestCode(uniqueEmail())).status).toBe(200);
    expect((await requestCode(uniqueEmail())).status).toBe(200);
    const perIp = await requestCode(uniqueEmail());
    expect(perIp.status).toBe(429);
    expect(perIp.body.message).toMatch(/from this network/i);
  });
});
