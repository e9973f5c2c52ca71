// The built app's first scripts: what index.html loads and preloads, and everything those import
// statically, is what every first visit waits for. None of it may carry a package kept off the channel
// route's first path, and together it stays inside issue 11's 170 kB on the wire. The source walk
// (tests/unit/first-path.test.ts) cannot see a schema value reached through schemas/protocol/index.ts;
// one such import (a zod schema in quoted-messages.ts) once put zod and the route table back, 35 kB more.
// Reads dist/ as `npm run build` left it; no browser. `npm run bench:client` measures the same on the wire.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { KEPT_OFF } from '../tests/support/first-path-packages.ts';
import { expect, test } from './support/test.ts';

const DIST = process.env.FIRST_SCRIPTS_DIST ?? path.resolve(import.meta.dirname, '../dist');
const BUDGET = 170_000;

/** The scripts index.html names: its module script, the app's entry and every modulepreload. */
function namedScripts(html: string): string[] {
  const urls = [
    ...html.matchAll(/<script type="module"[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<meta name="lantern-app" content="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*\shref="([^"]+)"/g),
  ].map((m) => m[1] as string);
  return [...new Set(urls)].map((url) => url.replace(/^\//, ''));
}

/** A chunk's static imports (not `import()`), as paths under dist/. */
function staticImports(file: string): string[] {
  const code = readFileSync(path.join(DIST, file), 'utf8');
  const dir = path.posix.dirname(file);
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+\.js)["']/g)].map((m) =>
    path.posix.normalize(path.posix.join(dir, m[1] as string)),
  );
}

/** Bytes as the server sends the file: its brotli copy when the build made one. */
function wireBytes(file: string): number {
  const full = path.join(DIST, file);
  return statSync(existsSync(`${full}.br`) ? `${full}.br` : full).size;
}

test('the first scripts carry no package kept off the first path, and fit in 170 kB on the wire', () => {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const queue = namedScripts(html);
  // A page that named nothing would pass vacuously.
  expect(queue.length).toBeGreaterThan(5);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  const found: string[] = [];
  for (const file of seen) {
    const map = `${path.join(DIST, file)}.map`;
    if (!existsSync(map)) continue;
    const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
    for (const name of Object.keys(KEPT_OFF))
      if (sources.some((source) => source.includes(`/node_modules/${name}/`)))
        found.push(`${name} in ${file} (belongs in ${KEPT_OFF[name]})`);
  }
  expect(found).toEqual([]);
  const bytes = [...seen].reduce((sum, file) => sum + wireBytes(file), 0);
  expect(bytes, `${seen.size} scripts`).toBeLessThanOrEqual(BUDGET);
});
