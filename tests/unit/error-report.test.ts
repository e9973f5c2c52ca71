// The scrubbing every error report passes before it leaves (schemas/error-report.ts): credentials and what
// people wrote are withheld; ids and the shape of the event stay, so the report is still useful.
import { describe, expect, it } from 'vitest';
import { scrubErrorEvent, scrubText, WITHHELD } from '../../schemas/error-report.ts';

const TOKEN = 'Zq3xY7bN1mK9pL2vR8sT4wU6aC0dE5fG_hJ-kM3nP7q';
const ID = '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60';

describe('error report scrubbing', () => {
  it('removes e-mail addresses, bearer tokens, JWTs, credential parameters and session tokens', () => {
    expect(scrubText(`Failed for bob.smith+x@example.co.uk`)).toBe('Failed for [email]');
    expect(scrubText(`Authorization: Bearer ${TOKEN}`)).toBe(`Authorization: Bearer ${WITHHELD}`);
    expect(scrubText('jwt eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl')).toBe(`jwt ${WITHHELD}`);
    expect(scrubText('/api/files/upload/k?size=3&signature=abc&expires=9')).toBe(
      `/api/files/upload/k?size=3&signature=${WITHHELD}&expires=9`,
    );
    expect(scrubText('code=493817&page=2')).toBe(`code=${WITHHELD}&page=2`);
    expect(scrubText(`token ${TOKEN} for message ${ID}`)).toBe(`token ${WITHHELD} for message ${ID}`);
  });

  it('withholds credential and content fields whole, at any depth, and keeps the rest', () => {
    const event = {
      message: 'Post failed',
      request: {
        url: '/api/institutions/w1/channels/c1/messages',
        headers: { Authorization: `Bearer ${TOKEN}`, Cookie: 'sid=1', 'user-agent': 'Firefox' },
        data: { content: '<p>salary figures</p>' },
      },
      user: { id: 'u1', email: 'a@example.com', ip_address: '10.0.0.1' },
      breadcrumbs: [{ category: 'ui', message: 'typed', data: { text: 'hello' } }],
      extra: { nested: { deeper: { html: '<p>secret</p>', count: 3 } } },
    };
    const scrubbed = scrubErrorEvent(event);
    expect(scrubbed).toEqual({
      message: 'Post failed',
      request: {
        url: '/api/institutions/w1/channels/c1/messages',
        headers: { Authorization: WITHHELD, Cookie: WITHHELD, 'user-agent': 'Firefox' },
        data: WITHHELD,
      },
      user: { id: 'u1', email: WITHHELD, ip_address: WITHHELD },
      breadcrumbs: [{ category: 'ui', message: 'typed', data: WITHHELD }],
      extra: { nested: { deeper: { html: WITHHELD, count: 3 } } },
    });
    // The original is left as it was (the SDK may still use it).
    expect(event.user.email).toBe('a@example.com');
  });
});
