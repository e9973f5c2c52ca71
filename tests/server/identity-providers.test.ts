// Sign-in through real OpenID providers (node-oidc-provider, in-process): one trusted for example-trusted.org,
// one not. The popup's start, the account chooser, the code exchange with PKCE, linking by (issuer,
// subject), e-mail takeover attempts through the untrusted provider, confirmation by e-mail code, domain and
// sign-up refusals, and the linked sign-in methods in Settings.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ErrorBody,
  IdentityProvidersResponse,
  ProviderSigninResponse,
  SigninMethodsResponse,
  SigninResponse,
} from '../../schemas/protocol/index.ts';
import { type OpenIdProvider, startOpenIdProvider } from '../fixtures/openid-provider.ts';
import { databases, startTestServer, type TestServer, uniqueEmail } from './harness.ts';
import { type Attempt, chooseAccount, startAttempt } from './identity-flow.ts';

const REDIRECT = 'http://localhost:3000/api/auth/provider/callback';

describe.each(databases)('identity providers (%s)', (kind) => {
  let t: TestServer;
  let trusted: OpenIdProvider;
  let untrusted: OpenIdProvider;
  let closedSignup: OpenIdProvider;

  beforeAll(async () => {
    const common = { clientSecret: 'secret-of-lantern', redirectUri: REDIRECT };
    [trusted, untrusted, closedSignup] = await Promise.all([
      startOpenIdProvider({ ...common, clientId: 'lantern-a', accounts: [] }),
      startOpenIdProvider({ ...common, clientId: 'lantern-b', accounts: [] }),
      startOpenIdProvider({ ...common, clientId: 'lantern-c', accounts: [] }),
    ]);
    t = await startTestServer(kind, {
      env: {
        OIDC_PROVIDERS: JSON.stringify([
          {
            id: 'school',
            issuer: trusted.issuer,
            clientId: 'lantern-a',
            clientSecret: 'secret-of-lantern',
            name: 'School ID',
            trustedDomains: ['example-trusted.org'],
          },
          {
            id: 'social',
            issuer: untrusted.issuer,
            clientId: 'lantern-b',
            clientSecret: 'secret-of-lantern',
            name: 'Social',
          },
          {
            id: 'corp',
            issuer: closedSignup.issuer,
            clientId: 'lantern-c',
            clientSecret: 'secret-of-lantern',
            name: 'Corp',
            allowSignup: false,
            allowedDomains: ['corp.example'],
            trustedDomains: ['corp.example'],
          },
        ]),
      },
    });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), trusted?.close(), untrusted?.close(), closedSignup?.close()]);
  });

  async function signInWith(providerId: string, sub: string) {
    const attempt = await startAttempt(t.url, providerId);
    const callback = await chooseAccount(attempt.authorizeUrl, sub);
    return finish(providerId, attempt, callback);
  }
  async function finish(providerId: string, attempt: Attempt, callback: URL) {
    return t.api().post<ProviderSigninResponse>('/api/auth/signin/provider', {
      kind: 'code',
      provider: providerId,
      state: callback.searchParams.get('state'),
      secret: attempt.secret,
      code: callback.searchParams.get('code'),
    });
  }
  const addAccount = (p: OpenIdProvider, email: string, verified = true) => {
    const sub = `sub-${Math.random().toString(36).slice(2)}`;
    p.accounts.set(sub, { sub, email, email_verified: verified, name: 'Ada Lovelace' });
    return sub;
  };

  it('lists the configured providers to anyone, without secrets', async () => {
    const res = await t.api().get<IdentityProvidersResponse>('/api/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body.providers.map((p) => [p.id, p.name])).toEqual([
      ['school', 'School ID'],
      ['social', 'Social'],
      ['corp', 'Corp'],
    ]);
    expect(JSON.stringify(res.body)).not.toContain('secret-of-lantern');
    expect(res.body.firebase).toBeNull();
  });

  it('sends the popup to the provider with PKCE S256, state, nonce and the account chooser', async () => {
    const { authorizeUrl, state } = await startAttempt(t.url, 'school');
    const q = authorizeUrl.searchParams;
    expect(authorizeUrl.origin).toBe(trusted.issuer);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('state')).toBe(state);
    expect(q.get('prompt')).toBe('select_account');
    expect(q.get('redirect_uri')).toBe(REDIRECT);
  });

  it('signs a new person up through the trusted provider, and the same identity in again after an e-mail change', async () => {
    const email = uniqueEmail('ada').replace('example.com', 'example-trusted.org');
    const sub = addAccount(trusted, email);
    const shownBefore = trusted.chooserShown;
    const first = await signInWith('school', sub);
    expect(first.status).toBe(200);
    const signedIn = first.body as SigninResponse;
    expect(signedIn.user.email).toBe(email);
    expect(signedIn.user.name).toBe('Ada Lovelace');
    expect((await t.api(signedIn.accessToken).get('/api/users')).status).toBe(200);

    // The provider changes the address: the person is still the same Lantern user.
    trusted.accounts.set(sub, {
      sub,
      email: email.replace('ada', 'ada.byron'),
      email_verified: true,
      name: 'Ada',
    });
    const again = await signInWith('school', sub);
    expect(again.status).toBe(200);
    expect((again.body as SigninResponse).user.id).toBe(signedIn.user.id);
    expect(trusted.chooserShown).toBe(shownBefore + 2);
  });

  it('links a trusted, verified address to the existing account of that address', async () => {
    const email = uniqueEmail('grace').replace('example.com', 'example-trusted.org');
    const existing = await t.signUp(email);
    const res = await signInWith('school', addAccount(trusted, email));
    expect(res.status).toBe(200);
    expect((res.body as SigninResponse).user.id).toBe(existing.user.id);
  });

  it('never links into an account through an untrusted provider without the e-mail code', async () => {
    const victim = await t.signUp(uniqueEmail('victim'));
    // The attacker's account at the untrusted provider claims the victim's address, verified or not.
    for (const verified of [true, false]) {
      const res = await signInWith('social', addAccount(untrusted, victim.user.email, verified));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ confirmEmail: victim.user.email, state: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain('accessToken');
    }
    // A wrong code links nothing; the code went to the victim's inbox, not the attacker's.
    const pending = await signInWith('social', addAccount(untrusted, victim.user.email));
    const body = pending.body as { state: string };
    const attempt = { state: body.state };
    const wrong = await t.api().post('/api/auth/signin/provider/confirm', {
      state: attempt.state,
      secret: 'A'.repeat(43),
      code: '000000',
    });
    expect(wrong.status).toBe(400);
    const methods = await victim.api.get<SigninMethodsResponse>('/api/users/signin-methods');
    expect(methods.body.data).toEqual([]);
  });

  it('links through the untrusted provider once the person confirms the address with the e-mail code', async () => {
    const email = uniqueEmail('confirm');
    const owner = await t.signUp(email);
    const sub = addAccount(untrusted, email);
    const attempt = await startAttempt(t.url, 'social');
    const callback = await chooseAccount(attempt.authorizeUrl, sub);
    const res = await finish('social', attempt, callback);
    expect(res.body).toMatchObject({ confirmEmail: email });
    // The mail tells the owner what the code would do.
    const mail =
      readdirSync(t.config.mailDir)
        .filter((f) => f.includes(`-${email}-`))
        .sort()
        .at(-1) ?? '';
    expect(readFileSync(path.join(t.config.mailDir, mail), 'utf8')).toContain(
      'Someone is linking a "Social" account',
    );
    const confirmed = await t.api().post<SigninResponse>('/api/auth/signin/provider/confirm', {
      state: attempt.state,
      secret: attempt.secret,
      code: t.lastCode(email),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user.id).toBe(owner.user.id);
    // From now on the identity signs in directly, and the confirmation cannot be used twice.
    const direct = await signInWith('social', sub);
    expect((direct.body as SigninResponse).user.id).toBe(owner.user.id);
    const replay = await t.api().post('/api/auth/signin/provider/confirm', {
      state: attempt.state,
      secret: attempt.secret,
      code: t.lastCode(email),
    });
    expect(replay.status).toBe(400);
  });

  it('refuses a replayed state, a state finished by another window, and a code from another sign-in', async () => {
    const email = uniqueEmail('replay').replace('example.com', 'example-trusted.org');
    const sub = addAccount(trusted, email);
    const attempt = await startAttempt(t.url, 'school');
    const callback = await chooseAccount(attempt.authorizeUrl, sub);

    // Another window (without the secret) cannot finish it.
    const stranger = await t.api().post('/api/auth/signin/provider', {
      kind: 'code',
      provider: 'school',
      state: attempt.state,
      secret: 'B'.repeat(43),
      code: callback.searchParams.get('code'),
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.message).toBe('This sign-in has expired or was already used. Please try again.');

    expect((await finish('school', attempt, callback)).status).toBe(200);
    // The same state and code again: refused.
    expect((await finish('school', attempt, callback)).status).toBe(400);

    // A code issued for one sign-in, finished on another: PKCE and the nonce do not match; refused.
    const a = await startAttempt(t.url, 'school');
    const b = await startAttempt(t.url, 'school');
    const codeOfA = await chooseAccount(a.authorizeUrl, sub);
    const crossed = await t.api().post('/api/auth/signin/provider', {
      kind: 'code',
      provider: 'school',
      state: b.state,
      secret: b.secret,
      code: codeOfA.searchParams.get('code'),
    });
    expect(crossed.status).toBe(400);
    expect(crossed.body.message).toMatch(/^Sign-in refused: School ID did not accept this sign-in/);

    // A state may start only one sign-in.
    const reused = await fetch(
      `${t.url}/api/auth/provider/school/start?state=${a.state}&binding=${'C'.repeat(43)}`,
      { redirect: 'manual' },
    );
    expect(reused.headers.get('location')).toMatch(/^\/api\/auth\/provider\/callback\?error=/);
  });

  it('refuses an address outside the provider’s domains, and sign-up where the provider closes it', async () => {
    const outside = await signInWith('corp', addAccount(closedSignup, uniqueEmail('out')));
    expect(outside.status).toBe(403);
    expect((outside.body as unknown as ErrorBody).message).toContain('limited to addresses at corp.example');

    const newcomer = await signInWith(
      'corp',
      addAccount(closedSignup, uniqueEmail('new').replace('example.com', 'corp.example')),
    );
    expect(newcomer.status).toBe(403);
    expect((newcomer.body as unknown as ErrorBody).message).toBe(
      'New accounts cannot be created with Corp on this server. Sign in with your e-mail address, or ask the operator.',
    );

    // Someone who already has an account may still sign in with it.
    const member = await t.signUp(uniqueEmail('member').replace('example.com', 'corp.example'));
    const ok = await signInWith('corp', addAccount(closedSignup, member.user.email));
    expect((ok.body as SigninResponse).user.id).toBe(member.user.id);
  });

  it('lists the linked sign-in methods and unlinks one, only the owner’s', async () => {
    const email = uniqueEmail('methods').replace('example.com', 'example-trusted.org');
    const res = await signInWith('school', addAccount(trusted, email));
    const me = t.api((res.body as SigninResponse).accessToken);
    const methods = await me.get<SigninMethodsResponse>('/api/users/signin-methods');
    expect(methods.body.email).toBe(email);
    expect(methods.body.data.map((m) => [m.providerId, m.providerName, m.email])).toEqual([
      ['school', 'School ID', email],
    ]);
    const linkId = methods.body.data[0]?.id ?? '';

    const other = await t.signUp();
    expect((await other.api.delete(`/api/users/signin-methods/${linkId}`)).status).toBe(404);
    expect((await t.api().delete(`/api/users/signin-methods/${linkId}`)).status).toBe(401);

    expect((await me.delete(`/api/users/signin-methods/${linkId}`)).status).toBe(200);
    expect((await me.get<SigninMethodsResponse>('/api/users/signin-methods')).body.data).toEqual([]);
  });

  it('answers bad input with a sentence, never a 500', async () => {
    const bad = await t
      .api()
      .post('/api/auth/signin/provider', { kind: 'code', provider: 'school', state: 'x' });
    expect(bad.status).toBe(400);
    const unknown = await t.api().post('/api/auth/signin/provider', {
      kind: 'code',
      provider: 'nope',
      state: 'A'.repeat(43),
      secret: 'A'.repeat(43),
      code: 'c',
    });
    expect(unknown.status).toBe(404);
    const start = await fetch(`${t.url}/api/auth/provider/nope/start?state=x`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const page = await fetch(`${t.url}/api/auth/provider/callback?code=a"><script>&state=s`);
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    const html = await page.text();
    expect(html).not.toContain('"><script>');
    expect(html).toContain('/identity-callback.js');
    // Apple's form_post answer: the same page, from the posted fields.
    const posted = await fetch(`${t.url}/api/auth/provider/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code: 'c1', state: 'A'.repeat(43) }).toString(),
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('&#34;code&#34;:&#34;c1&#34;');
  });
});
