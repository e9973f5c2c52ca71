// OIDC_PROVIDERS and FIREBASE_CONFIG as an operator writes them: presets filled in, mistakes refused at
// start-up with a sentence naming the provider.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/lantern-config-test', ...env });

describe('identity provider settings', () => {
  it('offers none by default', () => {
    const config = load({});
    expect(config.OIDC_PROVIDERS).toEqual([]);
    expect(config.FIREBASE_CONFIG).toBeNull();
  });

  it('fills in the Google, Microsoft and Apple presets', () => {
    const [google, microsoft, apple] = load({
      OIDC_PROVIDERS: JSON.stringify([
        { id: 'google', preset: 'google', clientId: 'g', clientSecret: 's' },
        { id: 'microsoft', preset: 'microsoft', clientId: 'm', clientSecret: 's', tenants: ['t1'] },
        { id: 'apple', preset: 'apple', clientId: 'a', apple: { teamId: 'T', keyId: 'K', privateKey: 'P' } },
      ]),
    }).OIDC_PROVIDERS;
    expect(google).toMatchObject({ issuer: 'https://accounts.google.com', name: 'Google', kind: 'google' });
    expect(google?.trustedDomains).toContain('gmail.com');
    expect(microsoft).toMatchObject({
      issuer: 'https://login.microsoftonline.com/common/v2.0',
      tenants: ['t1'],
    });
    expect(microsoft?.trustedDomains).toEqual([]);
    expect(apple).toMatchObject({ responseMode: 'form_post', scopes: ['openid', 'email', 'name'] });
  });

  it.each([
    ['not JSON', 'google', /must be a JSON array of providers/],
    [
      'no issuer',
      JSON.stringify([{ id: 'x', clientId: 'c', clientSecret: 's' }]),
      /provider x needs an issuer/,
    ],
    [
      'no secret',
      JSON.stringify([{ id: 'x', preset: 'google', clientId: 'c' }]),
      /provider x needs clientSecret/,
    ],
    [
      'the same id twice',
      JSON.stringify([
        { id: 'x', preset: 'google', clientId: 'c', clientSecret: 's' },
        { id: 'x', preset: 'google', clientId: 'c', clientSecret: 's' },
      ]),
      /provider id x is used twice/,
    ],
    [
      'an icon from another site',
      JSON.stringify([
        { id: 'x', preset: 'google', clientId: 'c', clientSecret: 's', icon: 'https://evil.example/i.png' },
      ]),
      /must be a path/,
    ],
    [
      'an unknown field',
      JSON.stringify([{ id: 'x', preset: 'google', clientId: 'c', clientSecret: 's', secret: 1 }]),
      /secret/,
    ],
  ])('refuses %s', (_label, value, message) => {
    expect(() => load({ OIDC_PROVIDERS: value })).toThrow(message);
  });

  it('reads the Firebase web config', () => {
    const config = load({
      FIREBASE_CONFIG: JSON.stringify({
        apiKey: 'k',
        authDomain: 'p.firebaseapp.com',
        projectId: 'lantern-prod',
      }),
    });
    expect(config.FIREBASE_CONFIG).toMatchObject({ projectId: 'lantern-prod', name: 'Google' });
    expect(() => load({ FIREBASE_CONFIG: '{"apiKey":"k"}' })).toThrow(/FIREBASE_CONFIG/);
  });
});
