// Removing file bytes from the store (disk or S3) together with their ledger row. A removal that fails
// (S3 unreachable) keeps the ledger row, so the periodic sweep tries again; it never fails the caller.
import { inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { uploadGrants } from '../db/schema.ts';
import type { FileStore } from './file-store.ts';

export interface StoredBytesDeps {
  db: Db;
  store: FileStore;
  log?: Pick<Logger, 'warn'>;
}

/** Removes each key's bytes, then the ledger rows of those removed; returns the keys removed. */
export async function discardBytes(deps: StoredBytesDeps, fileKeys: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const fileKey of new Set(fileKeys)) {
    try {
      await deps.store.remove(fileKey);
      removed.push(fileKey);
    } catch (err) {
      deps.log?.warn({ err, fileKey }, 'could not remove file bytes; the upload sweep will retry');
    }
  }
  if (removed.length > 0) await deps.db.delete(uploadGrants).where(inArray(uploadGrants.fileKey, removed));
  return removed;
}
