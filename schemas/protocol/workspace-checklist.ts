// The getting-started checklist of a new workspace and the caller's own membership settings
// (PUT /api/institutions/{id}/members, decision 0045).
import { z } from 'zod';
import { member } from './members.ts';

/** Each item is read from what has happened in the workspace, never ticked by hand. */
export const workspaceChecklist = z.object({
  /** Someone was invited (by e-mail or link) or someone besides the creator is a member. */
  invitePeople: z.boolean(),
  /** A channel besides the default ones exists. */
  createChannel: z.boolean(),
  /** The caller has sent a message in this workspace. */
  sayHello: z.boolean(),
  /** The caller put the checklist away; it stays away in this workspace on every device. */
  dismissed: z.boolean(),
});
export type WorkspaceChecklist = z.infer<typeof workspaceChecklist>;

// ───────────────────────────── REST: own membership ─────────────────────────────
/** What a member may change about their own membership; name and picture belong to the user (PUT /api/users). */
export const updateOwnMembershipBody = z.strictObject(
  { checklistDismissed: z.boolean({ error: 'Say true or false' }) },
  { error: 'Only checklistDismissed can be changed here' },
);
export type UpdateOwnMembershipBody = z.infer<typeof updateOwnMembershipBody>;
export const ownMembershipResponse = z.object({ member, checklist: workspaceChecklist });
export type OwnMembershipResponse = z.infer<typeof ownMembershipResponse>;
