// Vite plugin: the boot script of src/first-screen/paint.ts as an entry of its own and the page's only
// script: Vite would fold it into the app's entry (every module script of index.html becomes one), and the
// picture must be painted before the app's script is evaluated. In the build, the app's script tag becomes
// a preload (fetched and compiled at once, as before) and a <meta name="lantern-app"> naming it, which the
// boot script imports once the picture is on screen. The standalone sign-in page, signin.html, is built
// as a third input beside them.
import path from 'node:path';
import type { Plugin } from 'vite';

const SOURCE = 'src/first-screen/paint.ts';
/** The standalone sign-in page (src/sign-in-main.tsx, decision 0036): an HTML entry of its own. */
const SIGN_IN_PAGE = 'signin.html';
const NAME = 'first-screen';
/** The tag Vite writes for the app's entry. */
const APP_SCRIPT = /<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)"><\/script>/;

export function firstScreenEntry(root: string): Plugin {
  return {
    name: 'lantern-first-screen-entry',
    options(options) {
      if (typeof options.input === 'object' && !Array.isArray(options.input)) return;
      const html = typeof options.input === 'string' ? options.input : path.join(root, 'index.html');
      // Only the client build has index.html as its input (the service worker's build has its own).
      if (!html.endsWith('index.html')) return;
      return {
        ...options,
        input: { index: html, signin: path.join(root, SIGN_IN_PAGE), [NAME]: path.join(root, SOURCE) },
      };
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        // The sign-in page has no picture to paint and its own small script: left as Vite writes it.
        if (!ctx.filename.endsWith('index.html')) return html;
        const chunk = ctx.bundle
          ? Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.isEntry && c.name === NAME)
          : undefined;
        if (!chunk) {
          // The dev server: the boot script beside the app's own tag (it starts nothing without the meta).
          return [{ tag: 'script', attrs: { type: 'module', src: `/${SOURCE}` }, injectTo: 'head-prepend' }];
        }
        const app = APP_SCRIPT.exec(html);
        if (!app?.[1]) throw new Error("index.html: the app's script tag was not found");
        return {
          html: html.replace(
            APP_SCRIPT,
            `<meta name="lantern-app" content="${app[1]}">\n    <link rel="modulepreload" crossorigin href="${app[1]}">`,
          ),
          tags: [
            { tag: 'script', attrs: { type: 'module', src: `/${chunk.fileName}` }, injectTo: 'head-prepend' },
          ],
        };
      },
    },
  };
}
