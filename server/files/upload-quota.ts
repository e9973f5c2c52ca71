// Upload caps: how many bytes one person and one workspace may hold, counted from the upload ledger
// (uploadGrants, one row per signed upload, kept while its bytes are). Checked when an upload is signed,
// so nothing past a cap is ever written.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { institutions, uploadGrants, users } from '../db/schema.ts';
import { HttpError } from '../errors.ts';

export interface UploadLimits {
  perUser: number;
  perWorkspace: number;
}

export interface UploadGrant {
  fileKey: string;
  userId: string;
  institutionId: string;
  size: number;
}

/** "1.5 GB": a limit as a person reads it. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Number(value.toFixed(1))} ${units[unit]}`;
}

async function heldBytes(db: Db, where: ReturnType<typeof eq>): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | number | null>`coalesce(sum(${uploadGrants.size}), 0)` })
    .from(uploadGrants)
    .where(where);
  return Number(row?.total ?? 0);
}

/** 413 naming the limit when `size` more bytes would take this person or this workspace past its cap. */
async function requireUploadRoom(
  db: Db,
  limits: UploadLimits,
  userId: string,
  institutionId: string,
  size: number,
): Promise<void> {
  const mine = await heldBytes(db, eq(uploadGrants.userId, userId));
  if (mine + size > limits.perUser)
    throw new HttpError(
      413,
      `Your uploads are limited to ${formatBytes(limits.perUser)} in total and you hold ${formatBytes(mine)}: delete some files to upload this one`,
    );
  const workspace = await heldBytes(db, eq(uploadGrants.institutionId, institutionId));
  if (workspace + size > limits.perWorkspace)
    throw new HttpError(
      413,
      `This workspace's uploads are limited to ${formatBytes(limits.perWorkspace)} in total and it holds ${formatBytes(workspace)}: delete some files to upload this one`,
    );
}

/**
 * Records the grant if it fits both caps (413 naming the limit otherwise). The person's and the
 * workspace's rows are locked, always in that order, so two signs racing cannot both squeeze past a cap.
 */
export async function reserveUpload(db: Db, limits: UploadLimits, grant: UploadGrant): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, grant.userId)).for('update');
    await tx
      .select({ id: institutions.id })
      .from(institutions)
      .where(eq(institutions.id, grant.institutionId))
      .for('update');
    await requireUploadRoom(tx, limits, grant.userId, grant.institutionId, grant.size);
    await tx.insert(uploadGrants).values(grant);
  });
}

/** The grant a registration claims: only the person who signed it, for the workspace it was signed for. */
export async function findUploadGrant(
  db: Db,
  fileKey: string,
  userId: string,
  institutionId: string,
): Promise<UploadGrant | undefined> {
  const [row] = await db
    .select()
    .from(uploadGrants)
    .where(
      and(
        eq(uploadGrants.fileKey, fileKey),
        eq(uploadGrants.userId, userId),
        eq(uploadGrants.institutionId, institutionId),
      ),
    )
    .limit(1);
  return row;
}
