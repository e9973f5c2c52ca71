// Sign-in codes under attack: a stranger who asks for codes to someone else's address can neither void the
// code already mailed nor stop its owner from getting one, and a guesser meets growing delays per address
// and per IP. Different client IPs come from X-Forwarded-For through one trusted proxy hop (TRUST_PROXY=1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../schemas/protocol/index.ts';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';

describe.each(databases)('sign-in code abuse on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, {
      env: {
        TRUST_PROXY: '1',
        OTP_PER_EMAIL_IP_PER_HOUR: '3',
        OTP_PER_EMAIL_PER_HOUR: '20',
        OTP_PER_IP_PER_HOUR: '1000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function call(ip: string, method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await fetch(new URL(url, t.url), {
      method,
      headers: { 'x-forwarded-for': ip, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as ErrorBody,
    };
  }
  const requestCode = (ip: string, email: string) =>
    call(ip, 'GET', `/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
  const signIn = (ip: string, email: string, code: string) =>
    call(ip, 'POST', '/api/auth/signin', { email, code });
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it("does not void the owner's code when a stranger asks for more codes to that address", async () => {
    const owner = uniqueEmail('owner');
    expect((await requestCode('198.51.100.1', owner)).status).toBe(200);
    const ownersCode = t.lastCode(owner);
    for (let i = 0; i < 3; i++) expect((await requestCode('203.0.113.66', owner)).status).toBe(200);
    expect((await signIn('198.51.100.1', owner, ownersCode)).status).toBe(200);
  });

  it("stops the stranger's requests without stopping the owner's", async () => {
    const owner = uniqueEmail('owner');
    for (let i = 0; i < 3; i++) expect((await requestCode('203.0.113.67', owner)).status).toBe(200);
    const refused = await requestCode('203.0.113.67', owner);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/Too many codes requested for this address/);

    expect((await requestCode('198.51.100.2', owner)).status).toBe(200);
    expect((await signIn('198.51.100.2', owner, t.lastCode(owner))).status).toBe(200);
  });

  it("does not void the owner's code when a stranger guesses wrong, and makes the guesser wait longer each time", async () => {
    const owner = uniqueEmail('owner');
    await requestCode('198.51.100.3', owner);
    const code = t.lastCode(owner);
    const guesser = '203.0.113.68';
    for (let i = 0; i < 5; i++) expect((await signIn(guesser, owner, wrong(code))).status).toBe(400);
    const first = await signIn(guesser, owner, wrong(code));
    expect(first.status).toBe(429);
    expect(first.retryAfter).toBe('1');
    expect(first.body.message).toBe('Too many wrong codes. Wait 1 second before trying again.');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await signIn(guesser, owner, wrong(code))).status).toBe(400);
    const second = await signIn(guesser, owner, wrong(code));
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBe('2');

    // The owner, from their own network, is not slowed by the stranger's few guesses.
    expect((await signIn('198.51.100.3', owner, code)).status).toBe(200);
  });

  it('slows one IP that sprays guesses over many addresses', async () => {
    const sprayer = '203.0.113.69';
    let refused: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await signIn(sprayer, uniqueEmail('target'), '000000');
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(400);
    }
    expect(refused?.body.message).toMatch(/Too many wrong codes/);
  });
});
