// Compresses answers on the fly for clients that accept it: JSON lists and message pages are mostly
// repeated keys and shrink five- to tenfold, which is what a slow connection feels. The built client
// is compressed once at build time instead (scripts/precompress.ts), and served as is by static.ts;
// an answer that already has a Content-Encoding is left alone.
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this, headers and the compressor's framing cost more than they save. */
const THRESHOLD_BYTES = 1024;
/** Brotli's default (11) is for build time; per request, 4 compresses better than gzip at gzip's speed. */
const DYNAMIC_BROTLI_QUALITY = 4;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
  });
}
