// Vite plugin: the standalone sign-in page (signin.html, decision 0036) gets its form rendered into the
// HTML at build time, so it paints with the stylesheet alone; src/sign-in-main.tsx hydrates it. The markup
// comes from a child process (tsx) rendering the same components the script hydrates.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const ROOT_TAG = '<div id="root"></div>';
const HEAD = /<head>[\s\S]*<\/head>/;
const TITLE = /<title>[\s\S]*<\/title>/;

/**
 * signin.html's head is index.html's (meta tags, manifest, icons) with signin.html's own title, copied before
 * Vite reads the page, so the two pages cannot drift apart.
 */
export function signInHead(html: string, indexHtml: string): string {
  const head = indexHtml.match(HEAD)?.[0];
  const title = html.match(TITLE)?.[0];
  if (!head || !TITLE.test(head)) throw new Error('index.html: no <head> with a <title> to copy');
  if (!title || !HEAD.test(html)) throw new Error('signin.html: no <head> with a <title>');
  return html.replace(HEAD, head.replace(TITLE, title));
}

export function signInPage(root: string): Plugin[] {
  return [
    {
      name: 'lantern-sign-in-head',
      transformIndexHtml: {
        order: 'pre',
        handler(html, ctx) {
          if (!ctx.filename.endsWith('signin.html')) return html;
          return signInHead(html, readFileSync(path.join(root, 'index.html'), 'utf8'));
        },
      },
    },
    {
      name: 'lantern-sign-in-page',
      apply: 'build',
      transformIndexHtml: {
        order: 'post',
        handler(html, ctx) {
          if (!ctx.filename.endsWith('signin.html')) return html;
          if (!html.includes(ROOT_TAG)) throw new Error('signin.html: <div id="root"></div> was not found');
          const markup = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/sign-in-markup.tsx'], {
            cwd: root,
            encoding: 'utf8',
            env: { ...process.env, NODE_ENV: 'production' },
          });
          return html.replace(ROOT_TAG, `<div id="root">${markup}</div>`);
        },
      },
    },
  ];
}
