// ID-token checks against tokens the test forges on jose: a minimal OpenID provider whose token endpoint
// answers what each test says (wrong audience, several audiences without azp, expired, another sign-in's
// nonce, alg none, HS256 keyed with the public key, a rotated key), an Entra-style multi-tenant issuer, and
// Firebase ID tokens from a Firebase-style issuer.
import { createPublicKey, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, exportPKCS8, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, ProviderSigninResponse, SigninResponse } from '../../schemas/protocol/index.ts';
import { startTokenIssuer, type TokenIssuer } from '../fixtures/token-issuer.ts';
import { databases, startTestServer, type TestServer } from './harness.ts';
import { startAttempt } from './identity-flow.ts';

const CLIENT = 'forge-client';
const PROJECT = 'lantern-test';
const FIREBASE_ISS = `https://securetoken.google.com/${PROJECT}`;
const now = () => Math.floor(Date.now() / 1000);

describe.each(databases)('ID-token checks (%s)', (kind) => {
  let t: TestServer;
  let forge: TokenIssuer;
  let entra: TokenIssuer;
  let firebase: TokenIssuer;

  beforeAll(async () => {
    [forge, entra, firebase] = await Promise.all([
      startTokenIssuer(),
      startTokenIssuer(),
      startTokenIssuer(),
    ]);
    entra.discoveryIssuer = `${entra.url}/{tenantid}/v2.0`;
    const appleKey = await generateKeyPair('ES256', { extractable: true });
    const applePem = await exportPKCS8(appleKey.privateKey);
    t = await startTestServer(kind, {
      env: {
        OIDC_PROVIDERS: JSON.stringify([
          {
            id: 'forge',
            issuer: forge.url,
            clientId: CLIENT,
            clientSecret: 's',
            trustedDomains: ['forge.example'],
          },
          {
            id: 'apple',
            preset: 'apple',
            issuer: forge.url,
            clientId: CLIENT,
            apple: { teamId: 'TEAM123', keyId: 'KEY456', privateKey: applePem },
            trustedDomains: ['forge.example'],
          },
          {
            id: 'entra',
            preset: 'microsoft',
            issuer: entra.url,
            clientId: CLIENT,
            clientSecret: 's',
            trustedDomains: ['contoso.example'],
          },
        ]),
        FIREBASE_CONFIG: JSON.stringify({
          apiKey: 'k',
          authDomain: 'lantern-test.firebaseapp.com',
          projectId: PROJECT,
        }),
        FIREBASE_JWKS_URL: `${firebase.url}/jwks`,
      },
    });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), forge?.close(), entra?.close(), firebase?.close()]);
  });

  const claims = (nonce: string, extra: Record<string, unknown> = {}) => ({
    iss: forge.url,
    sub: `person-${randomUUID()}`,
    aud: CLIENT,
    email: `p-${randomUUID().slice(0, 8)}@forge.example`,
    email_verified: true,
    nonce,
    iat: now(),
    exp: now() + 300,
    ...extra,
  });

  /** One whole sign-in through `provider`, its token endpoint answering `token(nonce)`. */
  async function signInWith(
    issuer: TokenIssuer,
    providerId: string,
    token: (nonce: string) => Promise<string>,
  ) {
    issuer.nextIdToken = token;
    const attempt = await startAttempt(t.url, providerId);
    // The forged provider answers the authorize request at once with a code.
    const back = await fetch(attempt.authorizeUrl, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location') ?? '');
    return t.api().post<ProviderSigninResponse>('/api/auth/signin/provider', {
      kind: 'code',
      provider: providerId,
      state: callback.searchParams.get('state'),
      secret: attempt.secret,
      code: callback.searchParams.get('code'),
    });
  }
  const refusal = (res: { status: number; body: unknown }) => ({
    status: res.status,
    message: (res.body as ErrorBody).message,
  });

  it('accepts a well-formed token, with several audiences only when azp names us', async () => {
    const plain = await signInWith(forge, 'forge', (nonce) => forge.sign(claims(nonce)));
    expect(plain.status).toBe(200);
    expect((plain.body as SigninResponse).accessToken).toBeTruthy();
    const withAzp = await signInWith(forge, 'forge', (nonce) =>
      forge.sign(claims(nonce, { aud: [CLIENT, 'other-api'], azp: CLIENT })),
    );
    expect(withAzp.status).toBe(200);
  });

  it.each([
    ['a wrong audience', { aud: 'someone-else' }, 'the token was issued to another application'],
    [
      'several audiences without azp',
      { aud: [CLIENT, 'other-api'] },
      'the token has several audiences and no authorized party',
    ],
    [
      'an azp naming another client',
      { aud: [CLIENT, 'x'], azp: 'x' },
      'the token was issued to another application',
    ],
    ['an expired token', { iat: now() - 900, exp: now() - 600 }, 'the token has expired'],
    ['another issuer', { iss: 'https://evil.example' }, 'the token comes from another issuer'],
    [
      'an issue time in the future',
      { iat: now() + 3600, exp: now() + 7200 },
      'the token is issued in the future',
    ],
    [
      'the nonce of another sign-in',
      { nonce: 'nonce-of-another-state' },
      'the token was issued for another sign-in',
    ],
  ])('refuses %s', async (_label, extra, reason) => {
    const res = await signInWith(forge, 'forge', (nonce) => forge.sign(claims(nonce, extra)));
    expect(refusal(res)).toEqual({ status: 400, message: `Sign-in refused: ${reason}.` });
  });

  it('refuses a token replayed into a later sign-in (its nonce belongs to the first)', async () => {
    let captured = '';
    const first = await signInWith(forge, 'forge', async (nonce) => {
      captured = await forge.sign(claims(nonce));
      return captured;
    });
    expect(first.status).toBe(200);
    const replay = await signInWith(forge, 'forge', async () => captured);
    expect(refusal(replay)).toEqual({
      status: 400,
      message: 'Sign-in refused: the token was issued for another sign-in.',
    });
  });

  it('refuses alg none and HS256 signed with the provider’s public key', async () => {
    const unsigned = (payload: object) =>
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
    const none = await signInWith(forge, 'forge', async (nonce) => unsigned(claims(nonce)));
    expect(refusal(none)).toEqual({
      status: 400,
      message: 'Sign-in refused: tokens signed with "none" are not accepted.',
    });

    const key = forge.published[0];
    if (!key) throw new Error('no key');
    const pem = createPublicKey({ key: key.publicJwk as never, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    });
    const hs = await signInWith(forge, 'forge', (nonce) =>
      new SignJWT(claims(nonce)).setProtectedHeader({ alg: 'HS256', kid: key.kid }).sign(Buffer.from(pem)),
    );
    expect(refusal(hs)).toEqual({
      status: 400,
      message: 'Sign-in refused: tokens signed with "HS256" are not accepted.',
    });
  });

  it('fetches the key set again once for an unknown kid (rotation), and refuses a key never published', async () => {
    expect((await signInWith(forge, 'forge', (nonce) => forge.sign(claims(nonce)))).status).toBe(200);
    const fetchesBefore = forge.jwksFetches;
    const rotated = await forge.rotate();
    const afterRotation = await signInWith(forge, 'forge', (nonce) => forge.sign(claims(nonce), rotated));
    expect(afterRotation.status).toBe(200);
    expect(forge.jwksFetches).toBe(fetchesBefore + 1);

    // A key the provider never published: refused, and it cannot make the server fetch again and again.
    const stranger = await forge.newKey();
    for (let i = 0; i < 3; i++) {
      const res = await signInWith(forge, 'forge', (nonce) => forge.sign(claims(nonce), stranger));
      expect(refusal(res)).toEqual({
        status: 400,
        message: 'Sign-in refused: the token was signed with a key the provider does not publish.',
      });
    }
    expect(forge.jwksFetches).toBe(fetchesBefore + 1);
  });

  it('asks Apple for a form post and signs its client secret with the developer key', async () => {
    const res = await signInWith(forge, 'apple', (nonce) =>
      forge.sign(claims(nonce, { email_verified: 'true' })),
    );
    expect(res.status).toBe(200);
    expect(forge.lastAuthorize?.get('response_mode')).toBe('form_post');
    expect(forge.lastAuthorize?.get('scope')).toBe('openid email name');
    const secret = forge.lastTokenForm?.get('client_secret') ?? '';
    expect(decodeProtectedHeader(secret)).toMatchObject({ alg: 'ES256', kid: 'KEY456' });
    expect(decodeJwt(secret)).toMatchObject({
      iss: 'TEAM123',
      sub: CLIENT,
      aud: 'https://appleid.apple.com',
    });
  });

  it('checks an Entra token’s issuer against its own tenant', async () => {
    const tid = randomUUID();
    const entraClaims = (nonce: string, extra: Record<string, unknown> = {}) =>
      claims(nonce, {
        iss: `${entra.url}/${tid}/v2.0`,
        tid,
        email: `p-${tid.slice(0, 6)}@contoso.example`,
        ...extra,
      });
    const ok = await signInWith(entra, 'entra', (nonce) => entra.sign(entraClaims(nonce)));
    expect(ok.status).toBe(200);
    const otherTenant = await signInWith(entra, 'entra', (nonce) =>
      entra.sign(entraClaims(nonce, { iss: `${entra.url}/${randomUUID()}/v2.0` })),
    );
    expect(refusal(otherTenant)).toEqual({
      status: 400,
      message: 'Sign-in refused: the token comes from another issuer.',
    });
    const noTenant = await signInWith(entra, 'entra', (nonce) =>
      entra.sign(entraClaims(nonce, { tid: undefined })),
    );
    expect(noTenant.status).toBe(400);
  });

  describe('Firebase ID tokens', () => {
    const fbClaims = (extra: Record<string, unknown> = {}) => ({
      iss: FIREBASE_ISS,
      aud: PROJECT,
      sub: `uid-${randomUUID()}`,
      email: `fb-${randomUUID().slice(0, 8)}@gmail.com`,
      email_verified: true,
      auth_time: now(),
      iat: now(),
      exp: now() + 3600,
      ...extra,
    });
    const post = async (idToken: string) =>
      t.api().post<ProviderSigninResponse>('/api/auth/signin/provider', { kind: 'firebase', idToken });

    it('signs in with a verified, trusted address and offers the web config to the client', async () => {
      const res = await post(await firebase.sign(fbClaims()));
      expect(res.status).toBe(200);
      expect((res.body as SigninResponse).user.email).toMatch(/@gmail\.com$/);
      const providers = await t.api().get<{ firebase: { projectId: string } | null }>('/api/auth/providers');
      expect(providers.body.firebase?.projectId).toBe(PROJECT);
    });

    it.each([
      [
        'another project',
        { aud: 'other-project' },
        'Sign-in refused: the token was issued to another application.',
      ],
      [
        'another issuer',
        { iss: 'https://securetoken.google.com/other-project' },
        'Sign-in refused: the token comes from another issuer.',
      ],
      [
        'an old sign-in',
        { auth_time: now() - 3000 },
        'Sign-in refused: the sign-in is too old; sign in again.',
      ],
    ])('refuses %s', async (_label, extra, message) => {
      expect(refusal(await post(await firebase.sign(fbClaims(extra))))).toEqual({ status: 400, message });
    });

    it('answers 502 with a sentence when the key set cannot be fetched', async () => {
      firebase.jwksDown = true;
      try {
        const res = await post(await firebase.sign(fbClaims(), await firebase.newKey()));
        expect(refusal(res)).toEqual({
          status: 502,
          message: 'Firebase could not be reached. Please try again in a moment.',
        });
      } finally {
        firebase.jwksDown = false;
      }
    });

    it('does not take over an account through an address it is not trusted for', async () => {
      const victim = await t.signUp();
      const res = await post(await firebase.sign(fbClaims({ email: victim.user.email })));
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('accessToken');
    });
  });
});
