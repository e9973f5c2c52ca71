// The server's own file store: bytes under DATA_DIR/files/<fileKey>. An upload streams into a temporary
// file and is renamed into place only when complete and within its limit, so a refused or broken upload
// never leaves a partial file behind and never writes more than the limit.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { HttpError } from '../errors.ts';

/** fileKeys are made by the server (see file-key.ts); anything else never reaches the disk. */
export const FILE_KEY_PATTERN = /^[0-9a-f-]{36}$/;

export class LocalStore {
  constructor(readonly dir: string) {}

  private pathOf(fileKey: string): string {
    if (!FILE_KEY_PATTERN.test(fileKey)) throw new HttpError(404, 'File not found');
    return path.join(this.dir, fileKey);
  }

  private tempDir(): string {
    return path.join(this.dir, '.incoming');
  }

  /**
   * Streams `body` to the key's file. More than `limit` bytes → 413 and the stream is abandoned at once;
   * a different byte count than `expected` → 400. Either way the temporary file is removed.
   */
  async write(fileKey: string, body: Readable, expected: number, limit: number): Promise<void> {
    const target = this.pathOf(fileKey);
    if (await exists(target)) throw new HttpError(409, 'This file was already uploaded');
    await mkdir(this.tempDir(), { recursive: true });
    const temp = path.join(this.tempDir(), randomUUID());
    try {
      await copyWithLimit(body, temp, limit);
      const written = (await stat(temp)).size;
      if (written !== expected)
        throw new HttpError(400, `Expected ${expected} bytes but received ${written}`);
      await rename(temp, target);
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** The stored size, or null when nothing was uploaded under this key. */
  async size(fileKey: string): Promise<number | null> {
    try {
      return (await stat(this.pathOf(fileKey))).size;
    } catch {
      return null;
    }
  }

  read(fileKey: string): ReadStream {
    return createReadStream(this.pathOf(fileKey));
  }

  async remove(fileKey: string): Promise<void> {
    await rm(this.pathOf(fileKey), { force: true });
  }

  /** Partial uploads left behind by a crash mid-write, older than `cutoff`. */
  async removeStaleIncoming(cutoff: Date): Promise<void> {
    const names = await readdir(this.tempDir()).catch(() => [] as string[]);
    for (const name of names) {
      const file = path.join(this.tempDir(), name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtime.getTime() < cutoff.getTime()) await rm(file, { force: true });
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Copies until the body ends; past `limit` bytes it stops reading and rejects with 413. */
function copyWithLimit(body: Readable, file: string, limit: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file, { flags: 'wx' });
    let received = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      body.unpipe(out);
      out.destroy();
      // Wait for the descriptor to close so the caller's rm sees no open file.
      out.once('close', () => reject(error));
    };
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        body.pause();
        fail(new HttpError(413, `Files can be at most ${limit} bytes`));
      }
    });
    body.once('error', (e) => fail(e));
    body.once('aborted', () => fail(new HttpError(400, 'The upload was interrupted')));
    out.once('error', (e) => fail(e));
    out.once('finish', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    body.pipe(out);
  });
}
