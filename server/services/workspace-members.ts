// Workspace members beyond joining: role changes (one or many), a member's profile, and leaving.
// Role rules: only primary_owner, owner and admin change roles; nobody changes the primary owner or makes
// a second one; only the primary owner makes owners or changes an owner's role.
import { and, eq, inArray } from 'drizzle-orm';
import { isWorkspaceAdminRole } from '../../schemas/permissions.ts';
import type { Member, MemberProfile, WorkspaceRole } from '../../schemas/protocol/index.ts';
import { roleChangeRefusal } from '../../schemas/role-changes.ts';
import { type MemberRow, requireMember } from '../access.ts';
import { announceHeirs, handOnOwnership } from '../channels/ownership-succession.ts';
import { profileChannelsOf } from '../channels/profile-channels.ts';
import type { AppContext } from '../context.ts';
import { channelMembers, channels, members, users } from '../db/schema.ts';
import { forbidden, notFound } from '../errors.ts';
import type { RealtimeControls } from '../realtime-controls.ts';
import type { UserRow } from './users.ts';

/** A workspace member in its wire shape: the member row with its user's name and picture, and presence. */
export const toMember = (row: MemberRow, user: UserRow, isOnline = false): Member => ({
  id: row.id,
  institutionId: row.institutionId,
  role: row.role,
  name: user.name,
  email: user.email,
  profileImage: user.profileImage,
  user: { id: user.id, isOnline },
  createdAt: row.createdAt.toISOString(),
  kind: row.kind,
});

type Ctx = Pick<AppContext, 'db' | 'broadcast'> & {
  realtime: Pick<RealtimeControls, 'leaveInstitution' | 'onlineUserIds'>;
};

async function memberViews(ctx: Ctx, institutionId: string, ids: string[]): Promise<Member[]> {
  if (ids.length === 0) return [];
  const online = await ctx.realtime.onlineUserIds(institutionId);
  const rows = await ctx.db
    .select({ member: members, user: users })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.institutionId, institutionId), inArray(members.id, ids)));
  const byId = new Map(rows.map((r) => [r.member.id, toMember(r.member, r.user, online.has(r.user.id))]));
  return ids.map((id) => byId.get(id)).filter((m): m is Member => m !== undefined);
}

/**
 * Gives every listed member the role, or none of them: the whole request is refused (403, naming how many
 * could not be changed and why, and in `fields` each refused one's reason by its place in `memberIds`)
 * when one of them may not be changed. Ids of other workspaces are 404.
 */
export async function updateMemberRoles(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  memberIds: string[],
  role: WorkspaceRole,
): Promise<Member[]> {
  const ids = [...new Set(memberIds)];
  const actor = await requireMember(ctx.db, institutionId, userId);
  if (!isWorkspaceAdminRole(actor.role)) throw forbidden('Only workspace owners and admins can change roles');
  const changed = await ctx.db.transaction(async (tx) => {
    // Locked so a concurrent change cannot slip between the rule check and the update.
    const targets = await tx
      .select()
      .from(members)
      .where(and(eq(members.institutionId, institutionId), inArray(members.id, ids)))
      .for('update');
    if (targets.length !== ids.length)
      throw notFound(
        ids.length === 1
          ? 'Member not found'
          : `${ids.length - targets.length} of these members were not found`,
      );
    const byId = new Map(targets.map((t) => [t.id, t]));
    // Keyed as the request names them ("memberIds.2"), so a caller can say why beside each person.
    const refusals: Record<string, string> = {};
    for (const memberId of ids) {
      const target = byId.get(memberId);
      const reason = target ? roleChangeRefusal(actor, target, role) : null;
      if (reason) refusals[`memberIds.${memberIds.indexOf(memberId)}`] = reason;
    }
    const reasons = Object.values(refusals);
    if (reasons.length > 0) {
      const refused = forbidden(
        ids.length === 1
          ? (reasons[0] ?? '')
          : `No roles changed: ${reasons.length} of ${ids.length} members cannot be changed (${reasons[0]})`,
      );
      if (ids.length > 1) refused.fields = refusals;
      throw refused;
    }
    const toChange = targets.filter((t) => t.role !== role).map((t) => t.id);
    if (toChange.length) await tx.update(members).set({ role }).where(inArray(members.id, toChange));
    return toChange.length;
  });
  if (changed > 0) ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'members' });
  return memberViews(ctx, institutionId, ids);
}

/** A member as another member sees them, with the channels they chose to show (as far as the viewer may see). */
export async function memberProfile(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  memberId: string,
): Promise<MemberProfile> {
  const viewer = await requireMember(ctx.db, institutionId, userId);
  const [member] = await memberViews(ctx, institutionId, [memberId]);
  if (!member) throw notFound('Member not found');
  return { member, channels: await profileChannelsOf(ctx.db, memberId, viewer.id) };
}

/**
 * The caller leaves the workspace: their member row goes (and with it their channel memberships, groups
 * and sections; their messages stay). The primary owner cannot leave. Their sockets leave its rooms. A
 * channel they alone owned gets a new owner (server/channels/ownership-succession.ts).
 */
export async function leaveWorkspace(ctx: Ctx, userId: string, institutionId: string): Promise<{ ok: true }> {
  const member = await requireMember(ctx.db, institutionId, userId);
  if (member.role === 'primary_owner')
    throw forbidden('The primary owner cannot leave the workspace; hand it over first');
  const joined = await ctx.db
    .select({ id: channelMembers.channelId })
    .from(channelMembers)
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .where(and(eq(channelMembers.memberId, member.id), eq(channels.institutionId, institutionId)));
  // A channel they alone owned passes to its longest-standing person, so it is never left unmanaged.
  const heirs = await ctx.db.transaction(async (tx) => {
    const handedOn = await handOnOwnership(tx, [member.id]);
    await tx.delete(members).where(eq(members.id, member.id));
    return handedOn;
  });
  announceHeirs(ctx, heirs);
  ctx.realtime.leaveInstitution(
    userId,
    institutionId,
    joined.map((c) => c.id),
  );
  ctx.broadcast.toUser(userId, 'refresh', { value: 'institutions' });
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'members' });
  // Their group memberships went with them.
  ctx.broadcast.toInstitution(institutionId, 'refresh', { value: 'groups' });
  return { ok: true };
}
