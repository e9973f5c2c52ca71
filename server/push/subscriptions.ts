// A session's push subscription ends with the session: signing out (here or from another device) deletes it.
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pushSubscriptions } from '../db/schema.ts';

export async function endPushSubscriptions(db: Db, sessionIds: readonly string[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.sessionId, [...sessionIds]));
}
