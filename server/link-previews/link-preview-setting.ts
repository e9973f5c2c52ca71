// The workspace's link-preview switch (decision 0053): on unless an admin turned it off.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { institutions } from '../db/schema.ts';

export async function linkPreviewsEnabled(db: Db, institutionId: string): Promise<boolean> {
  const [row] = await db
    .select({ enabled: institutions.linkPreviews })
    .from(institutions)
    .where(eq(institutions.id, institutionId))
    .limit(1);
  return row?.enabled ?? true;
}

export async function setLinkPreviews(db: Db, institutionId: string, enabled: boolean): Promise<boolean> {
  const [row] = await db
    .update(institutions)
    .set({ linkPreviews: enabled })
    .where(eq(institutions.id, institutionId))
    .returning({ enabled: institutions.linkPreviews });
  return row?.enabled ?? enabled;
}
