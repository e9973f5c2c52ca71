// What a bulk role change in the directory will do, worked out before it is sent: who changes, who has the
// role already, and who will not change and why. The server applies the same rule (schemas/role-changes.ts)
// and refuses the whole call if one person may not be changed, so the refused are left out of it.
import type { MemberDoc } from '../../../schemas/collections.ts';
import type { WorkspaceRole } from '../../../schemas/protocol/index.ts';
import { roleChangeRefusal } from '../../../schemas/role-changes.ts';

/** One's own role is changed by another admin: a bulk change would otherwise let someone demote themselves by accident. */
export const OWN_ROLE_REASON = 'You cannot change your own role here; another owner or admin can';

export interface RoleChangePlan {
  change: MemberDoc[];
  /** Already in the role: nothing to do. */
  same: MemberDoc[];
  refused: { member: MemberDoc; reason: string }[];
}

export function planRoleChange(
  me: Pick<MemberDoc, 'id' | 'role'>,
  selected: readonly MemberDoc[],
  role: WorkspaceRole,
): RoleChangePlan {
  const plan: RoleChangePlan = { change: [], same: [], refused: [] };
  for (const member of selected) {
    const reason = member.id === me.id ? OWN_ROLE_REASON : roleChangeRefusal(me, member, role);
    if (reason) plan.refused.push({ member, reason });
    else if (member.role === role) plan.same.push(member);
    else plan.change.push(member);
  }
  return plan;
}

/** Why this member can never be changed from the directory by `me`, whatever the role (null when they can). */
export function fixedRoleReason(me: Pick<MemberDoc, 'id' | 'role'>, member: MemberDoc): string | null {
  if (member.id === me.id) return OWN_ROLE_REASON;
  // 'member' is a role anyone who may change roles may give: a refusal here holds for every role.
  return member.role === 'primary_owner' ? roleChangeRefusal(me, member, 'member') : null;
}

/** The roles `me` may hand out: only the primary owner makes owners, and nobody makes a second primary owner. */
export function assignableRoles(myRole: WorkspaceRole): WorkspaceRole[] {
  return myRole === 'primary_owner' ? ['owner', 'admin', 'member', 'guest'] : ['admin', 'member', 'guest'];
}
