// Vite plugin: the bundled colour emoji font (issue 15 item 6: on a device without one every emoji was an
// empty box). Fontsource's Noto Color Emoji stylesheet is renamed "Lantern Emoji" and each of its faces
// tries the device's own emoji font first (local()), so a phone that has one downloads nothing; only a
// device without any fetches the subsets (unicode-range) its messages use. The font stack in
// src/styles.css names the platforms' emoji fonts before this one.
import type { Plugin } from 'vite';

export const EMOJI_FAMILY = 'Lantern Emoji';
const STYLESHEET = /@fontsource\/noto-color-emoji\/400\.css$/;
const LOCAL = ["local('Noto Color Emoji')", "local('NotoColorEmoji')"].join(', ');

/** The fontsource stylesheet with the family renamed and local() sources first. */
export function rewriteEmojiFaces(css: string): string {
  return css
    .replace(/font-family:\s*'Noto Color Emoji'/g, `font-family: '${EMOJI_FAMILY}'`)
    .replace(/src:\s*url\(/g, `src: ${LOCAL}, url(`);
}

export function emojiFont(): Plugin {
  return {
    name: 'lantern-emoji-font',
    enforce: 'pre',
    transform(code, id) {
      if (!STYLESHEET.test(id.split('?')[0] ?? '')) return null;
      return { code: rewriteEmojiFaces(code), map: null };
    },
  };
}
