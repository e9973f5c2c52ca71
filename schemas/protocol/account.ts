// Deleting one's own account (/account-deletion) and handing a workspace's primary ownership to someone
// else, which a primary owner must do first.
import { z } from 'zod';
import { OTP_LENGTH } from './limits.ts';
import { email, id } from './primitives.ts';

/** What happens to the person's messages: they stay under "Deleted user", or are removed. */
export const deletedMessagesChoice = z.enum(['keep', 'remove']);
export type DeletedMessagesChoice = z.infer<typeof deletedMessagesChoice>;

const workspaceRef = z.object({ id, name: z.string() });

/** GET /api/users/account-deletion: what deleting the caller's account would do, before they confirm. */
export const accountDeletionPreview = z.object({
  email: z.string(),
  /** Workspaces whose primary owner the caller is and which have other people: hand them over first. */
  blockingWorkspaces: z.array(workspaceRef),
  /** Workspaces nobody else is in: they are deleted with the account. */
  soleWorkspaces: z.array(workspaceRef),
  /** Live sessions (devices) that end. */
  sessions: z.number().int(),
});
export type AccountDeletionPreview = z.infer<typeof accountDeletionPreview>;

/** DELETE /api/users: the signed-in caller deletes their account. */
export const deleteAccountBody = z.object({ messages: deletedMessagesChoice.default('keep') });

/** POST /api/auth/account-deletion/code: mails a deletion code to the address, if it has an account. */
export const accountDeletionCodeBody = z.object({ email });

/** POST /api/auth/account-deletion: a signed-out person proves the address with the mailed code. */
export const deleteAccountByCodeBody = z.object({
  email,
  code: z
    .string()
    .max(OTP_LENGTH, { abort: true, message: 'The code is 6 digits' })
    .regex(/^\d{6}$/, 'The code is 6 digits'),
  messages: deletedMessagesChoice.default('keep'),
});

export const accountDeletedResponse = z.object({
  deleted: z.literal(true),
  /** Workspaces that were deleted with the account (nobody else was in them). */
  deletedWorkspaces: z.array(workspaceRef),
});
export type AccountDeletedResponse = z.infer<typeof accountDeletedResponse>;

/** GET /api/institutions/:id/deleted-members: member ids of people who deleted their account. */
export const deletedMembersResponse = z.object({ data: z.array(id) });

/** PUT /api/institutions/:id/primary-owner: the primary owner hands the workspace to an owner or admin. */
export const handOverBody = z.object({ memberId: id });
