// The upload sweep: bytes the server took but nobody kept are removed after a day. That is an upload
// signed but never registered (a ledger row without a file row), and on the server's own disk any stored
// or half-written bytes no record knows about. A registered file that no message carries yet is kept: a
// draft written offline may hold it for days, and drafts are never lost; the upload caps bound it.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNotNull, lt, notExists } from 'drizzle-orm';
import { files, uploadGrants } from '../db/schema.ts';
import { FILE_KEY_PATTERN } from './local-store.ts';
import { discardBytes, type StoredBytesDeps } from './stored-bytes.ts';

/** A day: long enough for a slow upload and its message to land, short enough that junk does not pile up. */
export const UPLOAD_SWEEP_AGE_MS = 24 * 60 * 60 * 1000;
/** How often the sweep runs; the age above is what matters, this only bounds how late it acts. */
export const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface SweepResult {
  /** Keys whose bytes were removed. */
  fileKeys: string[];
}

/** One pass: everything older than `maxAgeMs` before `now` that nothing holds on to is removed. */
export async function sweepUploads(
  deps: StoredBytesDeps,
  now: Date,
  maxAgeMs = UPLOAD_SWEEP_AGE_MS,
): Promise<SweepResult> {
  const { db } = deps;
  const cutoff = new Date(now.getTime() - maxAgeMs);
  // Ledger rows whose file row is gone (swept above, deleted with a channel or workspace) or never came.
  const unregistered = await db
    .select({ fileKey: uploadGrants.fileKey })
    .from(uploadGrants)
    .where(
      and(
        lt(uploadGrants.createdAt, cutoff),
        notExists(db.select().from(files).where(eq(files.fileKey, uploadGrants.fileKey))),
      ),
    );
  const fileKeys = await discardBytes(
    deps,
    unregistered.map((r) => r.fileKey),
  );
  fileKeys.push(...(await sweepUnknownLocalBytes(deps, cutoff)));
  return { fileKeys };
}

/** Bytes on the local disk that neither a file row nor a ledger row names, and abandoned partial uploads. */
async function sweepUnknownLocalBytes(deps: StoredBytesDeps, cutoff: Date): Promise<string[]> {
  const local = deps.store.local;
  if (!local) return [];
  const old = async (file: string) => (await stat(file).catch(() => null))?.mtime.getTime() ?? Infinity;
  const names = await readdir(local.dir).catch(() => [] as string[]);
  const candidates: string[] = [];
  for (const name of names)
    if (FILE_KEY_PATTERN.test(name) && (await old(path.join(local.dir, name))) < cutoff.getTime())
      candidates.push(name);
  const removed: string[] = [];
  if (candidates.length > 0) {
    const known = new Set<string>();
    const [rows, grants] = await Promise.all([
      deps.db
        .select({ fileKey: files.fileKey })
        .from(files)
        .where(and(isNotNull(files.fileKey), inArray(files.fileKey, candidates))),
      deps.db
        .select({ fileKey: uploadGrants.fileKey })
        .from(uploadGrants)
        .where(inArray(uploadGrants.fileKey, candidates)),
    ]);
    for (const r of [...rows, ...grants]) if (r.fileKey) known.add(r.fileKey);
    for (const key of candidates)
      if (!known.has(key)) {
        await local.remove(key);
        removed.push(key);
      }
  }
  await local.removeStaleIncoming(cutoff);
  return removed;
}

/** Runs the sweep every interval until stopped; a failed pass is logged and the next one tries again. */
export function startUploadSweep(
  deps: StoredBytesDeps & {
    log: NonNullable<StoredBytesDeps['log']> & { error: (o: object, m: string) => void };
  },
  intervalMs = UPLOAD_SWEEP_INTERVAL_MS,
): () => void {
  const timer = setInterval(() => {
    sweepUploads(deps, new Date()).catch((err: unknown) => deps.log.error({ err }, 'upload sweep failed'));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
