// An outbound answer's body as sent before compression: gzip, deflate and brotli are undone; any other
// content-encoding cannot be read. Readers keep their own size limits on what this yields.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

export class UnreadableEncoding extends Error {
  readonly encoding: string;
  constructor(encoding: string) {
    super(`unreadable content-encoding ${encoding}`);
    this.encoding = encoding;
  }
}

/** The answer's content-encoding, lower-cased ('' when none). */
export const contentEncoding = (res: IncomingMessage): string =>
  (res.headers['content-encoding'] ?? '').toLowerCase().trim();

/** The decompressed body (the answer itself when not compressed); the answer is destroyed when unreadable. */
export function decodedBody(res: IncomingMessage): Readable {
  const encoding = contentEncoding(res);
  let body: Readable;
  if (!encoding || encoding === 'identity') return res;
  if (encoding === 'gzip' || encoding === 'x-gzip') body = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') body = res.pipe(zlib.createInflate());
  else if (encoding === 'br') body = res.pipe(zlib.createBrotliDecompress());
  else {
    res.destroy();
    throw new UnreadableEncoding(encoding);
  }
  // Decompression errors surface on the decompressor; the answer's own errors (a time-out) on res.
  res.on('error', (err) => body.destroy(err));
  return body;
}
