// The getting-started checklist of a workspace and the caller's own membership settings (decision 0045).
// Every item is read from the workspace's real state, so it ticks itself whoever did the thing and from
// whichever device; only the dismissal is stored, on the caller's member row.
import { and, count, eq, ne } from 'drizzle-orm';
import type { Member, WorkspaceChecklist } from '../../schemas/protocol/index.ts';
import { type MemberRow, requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { channels, invitations, inviteLinks, members, messages } from '../db/schema.ts';
import { getUser } from './users.ts';
import { toMember } from './workspace-members.ts';

async function exists(query: Promise<{ n: number }[]>): Promise<boolean> {
  const [row] = await query;
  return (row?.n ?? 0) > 0;
}

async function checklistOf(db: Db, me: MemberRow): Promise<WorkspaceChecklist> {
  const institutionId = me.institutionId;
  const [invited, linked, people, created, sent] = await Promise.all([
    exists(db.select({ n: count() }).from(invitations).where(eq(invitations.institutionId, institutionId))),
    exists(db.select({ n: count() }).from(inviteLinks).where(eq(inviteLinks.institutionId, institutionId))),
    // Agents are member rows too; only people count as "someone else is here".
    db
      .select({ n: count() })
      .from(members)
      .where(and(eq(members.institutionId, institutionId), eq(members.kind, 'user')))
      .then(([row]) => row?.n ?? 0),
    exists(
      db
        .select({ n: count() })
        .from(channels)
        .where(
          and(
            eq(channels.institutionId, institutionId),
            eq(channels.isDefault, false),
            ne(channels.type, 'direct_message'),
          ),
        ),
    ),
    exists(
      db
        .select({ n: count() })
        .from(messages)
        .where(and(eq(messages.institutionId, institutionId), eq(messages.memberId, me.id))),
    ),
  ]);
  return {
    invitePeople: invited || linked || people > 1,
    createChannel: created,
    sayHello: sent,
    dismissed: me.checklistDismissedAt !== null,
  };
}

export async function workspaceChecklist(
  db: Db,
  userId: string,
  institutionId: string,
): Promise<WorkspaceChecklist> {
  return checklistOf(db, await requireMember(db, institutionId, userId));
}

/** PUT /api/institutions/{id}/members: the caller's own member row; 403 for someone not a member. */
export async function updateOwnMembership(
  ctx: Pick<AppContext, 'db'>,
  userId: string,
  institutionId: string,
  patch: { checklistDismissed: boolean },
): Promise<{ member: Member; checklist: WorkspaceChecklist }> {
  const me = await requireMember(ctx.db, institutionId, userId);
  const [row] = await ctx.db
    .update(members)
    .set({ checklistDismissedAt: patch.checklistDismissed ? (me.checklistDismissedAt ?? new Date()) : null })
    .where(eq(members.id, me.id))
    .returning();
  const updated = row ?? me;
  return {
    member: toMember(updated, await getUser(ctx.db, userId)),
    checklist: await checklistOf(ctx.db, updated),
  };
}
