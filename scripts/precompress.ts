// Vite plugin: after the build, writes a brotli (.br) and a gzip (.gz) copy beside every text asset, so
// the server sends compressed bytes without compressing per request (server/http/static.ts serves them
// with `preCompressed`). Maximum compression is affordable here because it happens once per build.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT_FILE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|wasm)$/;
/** Smaller files gain nothing worth a second request path. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export function precompressFiles(dir: string): { files: number; bytes: number; brotliBytes: number } {
  let count = 0;
  let bytes = 0;
  let brotliBytes = 0;
  for (const file of files(dir)) {
    if (!TEXT_FILE.test(file) || statSync(file).size < MIN_BYTES) continue;
    const raw = readFileSync(file);
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION });
    // A copy that is not smaller would only cost the reader a decompression.
    if (br.length < raw.length) writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
    count++;
    bytes += raw.length;
    brotliBytes += Math.min(br.length, raw.length);
  }
  return { files: count, bytes, brotliBytes };
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'lantern-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // Last, after the service worker has been written into the output.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const { files: n, bytes, brotliBytes } = precompressFiles(outDir);
        this.info?.(
          `precompressed ${n} files: ${(bytes / 1024).toFixed(0)} KiB → ${(brotliBytes / 1024).toFixed(0)} KiB brotli`,
        );
      },
    },
  };
}
