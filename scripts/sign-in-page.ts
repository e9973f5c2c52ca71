// Vite plugin: the standalone sign-in page (signin.html, decision 0036) gets its form rendered into the
// HTML at build time, so it paints with the stylesheet alone; src/sign-in-main.tsx hydrates it. The markup
// comes from a child process (tsx) rendering the same components the script hydrates.
import { execFileSync } from 'node:child_process';
import type { Plugin } from 'vite';

const ROOT_TAG = '<div id="root"></div>';

export function signInPage(root: string): Plugin {
  return {
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
  };
}
