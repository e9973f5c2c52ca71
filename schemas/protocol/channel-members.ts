// Who is in a channel: roles, membership, profile channels and join requests.
import { z } from 'zod';
import { channelMember, channelRef, channelRole } from './channels.ts';
import { member } from './members.ts';
import { id, isoDate } from './primitives.ts';

// ───────────────────────────── REST: channel roles, membership and requests ─────────────────────────────
export const CHANNEL_ROLE_NAME_MAX = 40;
export const CHANNEL_REQUEST_REASON_MAX = 500;
/** Most members named in one add/remove/role-members call. */
export const CHANNEL_MEMBERS_PER_CALL_MAX = 500;
const roleName = z.string().trim().min(1, 'Name cannot be empty').max(CHANNEL_ROLE_NAME_MAX);
export const channelRolesResponse = z.object({ data: z.array(channelRole) });
export const channelRoleResponse = z.object({ role: channelRole });
/** Who holds a role afterwards (workspace member ids): setting a role's members, transferring ownership. */
export const roleMembersResponse = z.object({ members: z.array(id) });
/** A new (never default, never ownership) role; flags left out are false. */
export const createChannelRoleBody = z.object({
  name: roleName,
  canPinMessage: z.boolean().default(false),
  canPost: z.boolean().default(false),
  canTag: z.boolean().default(false),
  canAddMembers: z.boolean().default(false),
  canDeleteMessage: z.boolean().default(false),
});
export type CreateChannelRoleBody = z.input<typeof createChannelRoleBody>;
/** Rename a role or change its flags; the default role is edited the same way (by its id). */
export const updateChannelRoleBody = z
  .object({
    name: roleName.optional(),
    canPinMessage: z.boolean().optional(),
    canPost: z.boolean().optional(),
    canTag: z.boolean().optional(),
    canAddMembers: z.boolean().optional(),
    canDeleteMessage: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to update');
export type UpdateChannelRoleBody = z.input<typeof updateChannelRoleBody>;
/** Exactly which channel members (workspace member ids) hold the role afterwards; may be empty. */
export const roleMembersBody = z.object({ members: z.array(id).max(CHANNEL_MEMBERS_PER_CALL_MAX) });
/** Workspace member ids to add to or remove from a channel. */
export const channelMembersBody = z.object({
  members: z.array(id).min(1, 'Name at least one member').max(CHANNEL_MEMBERS_PER_CALL_MAX),
});
export type ChannelMembersBody = z.infer<typeof channelMembersBody>;
/** The workspace member id of the new owner; they must be in the channel. */
export const transferOwnershipBody = z.object({ member: id });
export const channelMembersQuery = z.object({ role: id.optional() });
/** One person in a channel: their membership (with role ids) and their workspace member record. */
export const channelMemberEntry = z.object({ channelMember, member });
export type ChannelMemberEntry = z.infer<typeof channelMemberEntry>;
export const channelMembersResponse = z.object({ data: z.array(channelMemberEntry) });
/** The caller's own settings for a channel. */
export const updateMembershipBody = z
  .object({ muted: z.boolean().optional() })
  .refine((b) => b.muted !== undefined, 'Nothing to update');
export type UpdateMembershipBody = z.infer<typeof updateMembershipBody>;
export const channelMemberResponse = z.object({ channelMember });
/** Channel ids to show on the caller's profile (replaces the previous choice; channels they are in). */
export const profileChannelsBody = z.object({ channels: z.array(id).max(50) });
export const profileChannelsResponse = z.object({ channels: z.array(id) });

export const channelRequestStatus = z.enum(['pending', 'approved', 'rejected']);
export type ChannelRequestStatus = z.infer<typeof channelRequestStatus>;
export const channelRequest = z.object({
  id,
  institutionId: id,
  channelId: id,
  /**
   * The channel's name for its members (managers listing requests, a requester once approved); null for
   * a requester who is not a member, since a private channel's name is not theirs to read.
   */
  channelName: z.string().nullable(),
  /** The workspace member asking to join. */
  memberId: id,
  reason: z.string(),
  status: channelRequestStatus,
  createdAt: isoDate,
  decidedAt: isoDate.nullable(),
  decidedBy: id.nullable(),
});
export type ChannelRequest = z.infer<typeof channelRequest>;
export const createChannelRequestBody = z.object({
  reason: z.string().trim().min(1, 'Give a reason').max(CHANNEL_REQUEST_REASON_MAX),
});
export const updateChannelRequestBody = z.object({ status: channelRequestStatus });
export const channelRequestsQuery = z.object({ status: channelRequestStatus.optional() });
export const channelRequestsResponse = z.object({ data: z.array(channelRequest) });
export const channelRequestResponse = z.object({ request: channelRequest });

/** A channel manager answers a join request over the socket (same rule as PUT requests/{requestId}). */
export const memberActionPayload = channelRef.extend({
  action: z.literal('request'),
  requestId: id,
  status: z.enum(['approved', 'rejected']),
});
export type MemberActionPayload = z.infer<typeof memberActionPayload>;
/** Sent to the requester and the channel's managers when a join request is made or answered. */
export const memberActionEvent = z.object({
  channelId: id,
  memberId: id,
  action: z.literal('request'),
  status: channelRequestStatus,
  requestId: id,
});
export type MemberActionEvent = z.infer<typeof memberActionEvent>;
