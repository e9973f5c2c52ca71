// Workspaces (institutions) and invitations to them.
import { z } from 'zod';
import { NAME_MAX, WORKSPACE_PICTURE_MAX } from './limits.ts';
import { member } from './members.ts';
import { email, id, isoDate } from './primitives.ts';

export const institution = z.object({
  id,
  name: z.string(),
  createdAt: isoDate,
  /** Whether messages' links show previews (decision 0053); admins switch it. */
  linkPreviews: z.boolean(),
  /** The workspace's picture, a small image data URL (decision 0054); absent from an older server. */
  picture: z.string().nullable().optional(),
});
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
/** An invitation as the workspace's admins see it: also who sent it (a member id; null once they left). */
export const workspaceInvitation = invitation.extend({ invitedBy: id.nullable() });
export type WorkspaceInvitation = z.infer<typeof workspaceInvitation>;
export const invitationWithInstitution = invitation.extend({ institution });
export type InvitationWithInstitution = z.infer<typeof invitationWithInstitution>;

// ───────────────────────────── REST: institutions ─────────────────────────────
/** A workspace picture: a small PNG, JPEG, WebP or GIF as a data URL (a file would need a token to show). */
export const workspacePicture = z
  .string()
  .max(WORKSPACE_PICTURE_MAX, {
    abort: true,
    message: 'This picture is too large: choose a smaller image',
  })
  .regex(
    /^data:image\/(?:png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}$/,
    'A picture must be a PNG, JPEG, WebP or GIF image',
  );
/** POST /api/institutions: a new workspace's name. */
export const institutionBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
});
/** PUT /api/institutions/:id: a new name, a picture (null removes it), or both (decision 0054). */
export const updateInstitutionBody = z
  .object({
    name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX).optional(),
    picture: workspacePicture.nullable().optional(),
  })
  .refine((b) => b.name !== undefined || b.picture !== undefined, 'Give a new name or picture');
/** Creating a workspace, or accepting an invitation to one: the workspace and the caller's member record. */
export const createInstitutionResponse = z.object({ institution, member });
/** GET /api/institutions: the caller's workspaces, each with the caller's member record. */
export const institutionsResponse = z.object({ data: z.array(institutionWithMember) });
/** GET /api/institutions/invited: the caller's open invitations. */
export const myInvitationsResponse = z.object({ data: z.array(invitationWithInstitution) });
/** A workspace's open invitations (GET and DELETE invited-members answer with the list). */
export const invitationsResponse = z.object({ data: z.array(workspaceInvitation) });
/** POST invited-members: the new invitations, and the addresses skipped (members or already invited). */
export const inviteMembersResponse = invitationsResponse.extend({ skipped: z.array(z.string()) });
/** GET /api/institutions/{id}/members. */
export const membersResponse = z.object({ data: z.array(member) });
/** POST invited-members/{invitationId}/resend: the invitation whose e-mail went out again (decision 0054). */
export const resendInvitationResponse = z.object({ invitation: workspaceInvitation });
export const emailsBody = z.object({ emails: z.array(email).min(1).max(100) });
