// The bundled emoji font (issue 15 item 6): every face of fontsource's stylesheet is renamed "Lantern
// Emoji" and tries the device's own Noto Color Emoji before downloading, so a phone that has one fetches
// nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { EMOJI_FAMILY, rewriteEmojiFaces } from '../../scripts/emoji-font.ts';

it('renames every face and puts the local font before each download', () => {
  const file = createRequire(import.meta.url).resolve('@fontsource/noto-color-emoji/400.css');
  const css = rewriteEmojiFaces(readFileSync(file, 'utf8'));
  const faces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
  expect(faces.length).toBeGreaterThan(5);
  for (const face of faces) {
    expect(face).toContain(`font-family: '${EMOJI_FAMILY}'`);
    expect(face).toMatch(/src: local\('Noto Color Emoji'\), local\('NotoColorEmoji'\), url\(/);
    expect(face).toMatch(/unicode-range:/);
  }
  expect(css).not.toContain("'Noto Color Emoji';");
});
