// Workspaces (institutions) and invitations to them.
import { z } from 'zod';
import { NAME_MAX } from './limits.ts';
import { member } from './members.ts';
import { email, id, isoDate } from './primitives.ts';

export const institution = z.object({ id, name: z.string(), createdAt: isoDate });
export type Institution = z.infer<typeof institution>;

export const institutionWithMember = institution.extend({ member });
export type InstitutionWithMember = z.infer<typeof institutionWithMember>;

export const invitation = z.object({
  id,
  institutionId: id,
  email: z.string(),
  createdAt: isoDate,
});
export type Invitation = z.infer<typeof invitation>;
export const invitationWithInstitution = invitation.extend({ institution });
export type InvitationWithInstitution = z.infer<typeof invitationWithInstitution>;

// ───────────────────────────── REST: institutions ─────────────────────────────
export const institutionBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
});
/** Creating a workspace, or accepting an invitation to one: the workspace and the caller's member record. */
export const createInstitutionResponse = z.object({ institution, member });
/** GET /api/institutions: the caller's workspaces, each with the caller's member record. */
export const institutionsResponse = z.object({ data: z.array(institutionWithMember) });
/** GET /api/institutions/invited: the caller's open invitations. */
export const myInvitationsResponse = z.object({ data: z.array(invitationWithInstitution) });
/** A workspace's open invitations (GET and DELETE invited-members answer with the list). */
export const invitationsResponse = z.object({ data: z.array(invitation) });
/** POST invited-members: the new invitations, and the addresses skipped (members or already invited). */
export const inviteMembersResponse = invitationsResponse.extend({ skipped: z.array(z.string()) });
/** GET /api/institutions/{id}/members. */
export const membersResponse = z.object({ data: z.array(member) });
export const emailsBody = z.object({ emails: z.array(email).min(1).max(100) });
