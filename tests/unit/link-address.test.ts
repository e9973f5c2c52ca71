// The composer's link form: what people type becomes a working link, and what cannot be a link is
// refused with a reason instead of vanishing after the server's sanitizer.
import { describe, expect, it } from 'vitest';
import { parseLinkAddress } from '../../src/components/messages/link-address.ts';

describe('a link address typed in the composer', () => {
  it('gains https:// when typed without a scheme', () => {
    expect(parseLinkAddress('  example.com/handbook ')).toEqual({ href: 'https://example.com/handbook' });
  });

  it('keeps an address typed with its scheme, intranet hosts included', () => {
    expect(parseLinkAddress('http://wiki/start')).toEqual({ href: 'http://wiki/start' });
    expect(parseLinkAddress('https://example.com/a?b=1#c')).toEqual({ href: 'https://example.com/a?b=1#c' });
  });

  it('turns an e-mail address into a mail link', () => {
    expect(parseLinkAddress('ada@example.com')).toEqual({ href: 'mailto:ada@example.com' });
    expect(parseLinkAddress('mailto:ada@example.com')).toEqual({ href: 'mailto:ada@example.com' });
  });

  it('refuses scripts, empty input, spaces and bare words with a reason', () => {
    expect(parseLinkAddress('javascript:alert(1)')).toEqual({
      error: 'Only web (http, https) and e-mail links are allowed',
    });
    expect(parseLinkAddress('   ')).toEqual({ error: 'Enter a link address' });
    expect(parseLinkAddress('example .com')).toEqual({ error: 'A link address cannot contain spaces' });
    expect(parseLinkAddress('notes')).toEqual({ error: 'That is not a valid link address' });
  });
});
