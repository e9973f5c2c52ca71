// The addresses a shown message turns into links (issue 15 item 6): what a person typed, linked to where
// they meant, and nothing that only looks like a file name.
import { describe, expect, it } from 'vitest';
import { findLinks } from '../../src/components/messages/link-finder.ts';

/** Each link as the text it covers and where it goes. */
function links(text: string): [string, string][] {
  return findLinks(text).map((l) => [text.slice(l.start, l.end), l.href]);
}

describe('findLinks', () => {
  it('links an address typed last, with or without a scheme', () => {
    expect(links('the notes are at https://example.com/notes?week=3#top')).toEqual([
      ['https://example.com/notes?week=3#top', 'https://example.com/notes?week=3#top'],
    ]);
    expect(links('see example.org/guide')).toEqual([['example.org/guide', 'https://example.org/guide']]);
    expect(links('www.example.com')).toEqual([['www.example.com', 'https://www.example.com/']]);
    expect(links('http://localhost.test:3000/x')).toEqual([
      ['http://localhost.test:3000/x', 'http://localhost.test:3000/x'],
    ]);
  });

  it('leaves the sentence around an address out of it', () => {
    expect(links('Read https://example.com/a.')).toEqual([
      ['https://example.com/a', 'https://example.com/a'],
    ]);
    expect(links('(see example.com/page)')).toEqual([['example.com/page', 'https://example.com/page']]);
    expect(links('the wiki: https://en.wikipedia.org/wiki/Lantern_(disambiguation), then')).toEqual([
      [
        'https://en.wikipedia.org/wiki/Lantern_(disambiguation)',
        'https://en.wikipedia.org/wiki/Lantern_(disambiguation)',
      ],
    ]);
    expect(links('"example.com"!')).toEqual([['example.com', 'https://example.com/']]);
  });

  it('links e-mail addresses to mail', () => {
    expect(links('write to ana.lopez@school.edu.')).toEqual([
      ['ana.lopez@school.edu', 'mailto:ana.lopez@school.edu'],
    ]);
  });

  it('finds several addresses in one text, in order', () => {
    expect(links('a.com and b.io, then https://c.dev').map(([text]) => text)).toEqual([
      'a.com',
      'b.io',
      'https://c.dev',
    ]);
  });

  it('does not link file names, versions or words with dots', () => {
    for (const text of [
      'open index.html and README.md',
      'Node.js 22.1.0 is out',
      'e.g. this, i.e. that',
      'no dots here at all',
      'example.community is not example.com',
    ]) {
      expect(links(text).map(([t]) => t)).toEqual(text.includes('example.com') ? ['example.com'] : []);
    }
  });

  it('never links a scheme other than the web or mail', () => {
    expect(links('javascript:alert(1).com ftp://example.com file:///etc/passwd.com')).toEqual([]);
  });
});
