// Handing a workspace over: the primary owner makes an owner or admin the new primary owner and becomes an
// owner. A primary owner must do this before deleting their account (server/services/account-deletion.ts).
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { members } from '../db/schema.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';

type Ctx = Pick<AppContext, 'db' | 'broadcast'>;

export async function handOverWorkspace(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  memberId: string,
): Promise<{ ok: true }> {
  await ctx.db.transaction(async (tx) => {
    // Both rows locked: two hand-overs racing end with exactly one primary owner.
    const [actor] = await tx
      .select()
      .from(members)
      .where(and(eq(members.institutionId, institutionId), eq(members.userId, userId)))
      .for('update');
    if (!actor) throw forbidden('You are not a member of this workspace');
    if (actor.role !== 'primary_owner') throw forbidden('Only the primary owner can hand the workspace over');
    const [target] = await tx
      .select()
      .from(members)
      .where(and(eq(members.institutionId, institutionId), eq(members.id, memberId)))
      .for('update');
    if (!target) throw notFound('Member not found');
    if (target.id === actor.id) throw badRequest('You are already the primary owner');
    if (target.kind !== 'user') throw badRequest('An agent cannot own a workspace');
    if (target.role !== 'owner' && target.role !== 'admin')
      throw badRequest('Make this person an admin first: only an owner or admin can take the workspace over');
    await tx.update(members).set({ role: 'owner' }).where(eq(members.id, actor.id));
    await tx.update(members).set({ role: 'primary_owner' }).where(eq(members.id, target.id));
  });
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'members' });
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'institutions' });
  return { ok: true };
}
