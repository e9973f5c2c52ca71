// Visits: a member opened someone's profile, a channel or a group. Recorded for the metrics pages
// (most-visited members, channels, groups); only what the visitor may see can be visited.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { requireChannel, requireMember } from '../access.ts';
import { canSee, standingIn } from '../channels/permissions.ts';
import type { Db } from '../db/client.ts';
import { members, visits } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { requireGroup } from './groups.ts';

export type VisitTarget = 'member' | 'channel' | 'group';

/** Checks the visitor may see the target (404 as for a missing one when not) and records the visit. */
export async function recordVisit(
  db: Db,
  userId: string,
  institutionId: string,
  targetType: VisitTarget,
  targetId: string,
): Promise<void> {
  const visitor = await requireMember(db, institutionId, userId);
  if (targetType === 'member') {
    const [target] = await db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.id, targetId), eq(members.institutionId, institutionId)))
      .limit(1);
    if (!target) throw notFound('Member not found');
  } else if (targetType === 'channel') {
    const channel = await requireChannel(db, institutionId, targetId);
    if (!canSee(channel, visitor, await standingIn(db, visitor, channel)))
      throw notFound('Channel not found');
  } else {
    await requireGroup(db, institutionId, targetId);
  }
  await db.insert(visits).values({
    id: randomUUID(),
    institutionId,
    visitorMemberId: visitor.id,
    targetType,
    targetId,
  });
}
