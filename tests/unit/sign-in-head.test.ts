// signin.html takes index.html's head (decision 0036), so a meta tag, icon or manifest added to the app's page
// is on the standalone sign-in page too, under the sign-in page's own title.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signInHead } from '../../scripts/sign-in-page.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('the sign-in page head', () => {
  it("is index.html's head with the sign-in title", () => {
    const html = signInHead(read('signin.html'), read('index.html'));
    const head = html.match(/<head>[\s\S]*<\/head>/)?.[0] ?? '';
    expect(head).toContain('<title>Sign in - Lantern</title>');
    expect(head).not.toContain('<title>Lantern</title>');
    for (const tag of read('index.html').match(/<(meta|link) [^>]*>/g) ?? []) expect(head).toContain(tag);
    expect(html).toContain('<script type="module" src="/src/sign-in-main.tsx"></script>');
  });

  it('follows a tag added to index.html', () => {
    const index = read('index.html').replace('</head>', '<meta name="robots" content="noindex" />\n</head>');
    expect(signInHead(read('signin.html'), index)).toContain('<meta name="robots" content="noindex" />');
  });

  it('refuses pages without a head or title rather than building a page without them', () => {
    expect(() => signInHead('<html><body></body></html>', read('index.html'))).toThrow(/signin\.html/);
    expect(() => signInHead(read('signin.html'), '<html><body></body></html>')).toThrow(/index\.html/);
  });
});
