// Who may give whom which workspace role (spec §6), as one pure rule shared by the server (which enforces
// it, one member or many) and the directory (which says beforehand who will not change, and why).
import { isWorkspaceAdminRole } from './permissions.ts';
import type { WorkspaceRole } from './protocol/index.ts';

/** Why `actor` may not give `target` the role `role`, or null when they may. */
export function roleChangeRefusal(
  actor: { role: WorkspaceRole },
  target: { role: WorkspaceRole; kind: 'user' | 'agent' },
  role: WorkspaceRole,
): string | null {
  if (!isWorkspaceAdminRole(actor.role)) return 'Only workspace owners and admins can change roles';
  // An agent acts only when asked, within what the asker may read; a role would give it nothing but risk.
  if (target.kind === 'agent') return 'An agent has no workspace role; its settings say who may ask it';
  if (target.role === 'primary_owner') return 'Nobody can change the primary owner’s role';
  if (role === 'primary_owner') return 'A workspace has only one primary owner';
  if ((role === 'owner' || target.role === 'owner') && actor.role !== 'primary_owner')
    return 'Only the primary owner can make someone an owner or change an owner’s role';
  return null;
}
