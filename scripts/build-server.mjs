#!/usr/bin/env node
// The server half of `npm run build` (decision 0059): its TypeScript compiled ahead of time into
// dist-server/, so `npm run serve` starts plain JavaScript instead of compiling hundreds of files through
// tsx at every start (about 1.5 s of CPU on this machine, paid by every end-to-end test server too).
// Packages stay imports of node_modules; only our own files are bundled. The app loads in a chunk of its
// own, as server/main.ts's dynamic import asks, so error reporting still starts before the app's modules
// (and their packages) load.
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist-server');

// A few files find their neighbours from their own address (the migrations folder, the extraction worker,
// node_modules): each keeps its source file's address, so the bundle reads them where they are.
const ownAddress = {
  name: 'own-address',
  setup(b) {
    b.onLoad({ filter: /[\\/](server|schemas)[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const own = {
        'import.meta.url': pathToFileURL(args.path).href,
        'import.meta.filename': args.path,
        'import.meta.dirname': path.dirname(args.path),
      };
      let contents = source;
      for (const [name, value] of Object.entries(own))
        contents = contents.replaceAll(name, JSON.stringify(value));
      return { contents, loader: 'ts' };
    });
  },
};

const started = Date.now();
// The app chunk's name carries a hash: an earlier build's would stay beside it.
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'server/main.ts')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [ownAddress],
});
console.log(`server built into ${path.relative(process.cwd(), outdir) || '.'} in ${Date.now() - started} ms`);
