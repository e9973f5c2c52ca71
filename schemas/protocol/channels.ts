// Channels, their roles and the caller's membership record; creating and listing channels.
import { z } from 'zod';
import { NAME_MAX } from './limits.ts';
import { channelType, id, isoDate } from './primitives.ts';

export const channelRole = z.object({
  id,
  channelId: id,
  name: z.string(),
  isDefault: z.boolean(),
  isOwnershipRole: z.boolean(),
  canPinMessage: z.boolean(),
  canPost: z.boolean(),
  canTag: z.boolean(),
  canAddMembers: z.boolean(),
  canDeleteMessage: z.boolean(),
});
export type ChannelRole = z.infer<typeof channelRole>;

export const channel = z.object({
  id,
  institutionId: id,
  name: z.string(),
  type: channelType,
  isDefault: z.boolean(),
  defaultRole: channelRole.nullable(),
  /** For direct messages: the two member ids, so the client can show the other person. */
  directMessageMembers: z.array(id).nullable(),
  createdBy: id.nullable(),
  createdAt: isoDate,
  /** Highest change sequence of this channel's messages (see message.seq). */
  lastSeq: z.number().int().nonnegative(),
  lastSentMessage: z.object({ id, createdAt: isoDate }).nullable(),
});
export type Channel = z.infer<typeof channel>;

export const channelMember = z.object({
  id,
  channelId: id,
  memberId: id,
  unreadCount: z.number().int().nonnegative(),
  lastReadMessage: id.nullable(),
  roles: z.array(id),
  joinedAt: isoDate,
  /** The member's own settings for this channel (PUT channels/{channelId}/members). */
  muted: z.boolean().optional(),
  /** Direct messages: this member blocked the other person, who can no longer post here. */
  blocked: z.boolean().optional(),
  /** Shown on this member's profile (PUT channels/profile-channels). */
  showOnProfile: z.boolean().optional(),
});
export type ChannelMember = z.infer<typeof channelMember>;

// ───────────────────────────── REST: channels ─────────────────────────────
export const channelName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Name cannot be empty')
  .max(NAME_MAX, { abort: true, message: `A channel name has at most ${NAME_MAX} characters` })
  // trim() has already removed spaces at both ends, so the pattern only names the allowed characters: one
  // class, one pass (the former `[…]+(?:[ …]*[…])?` backtracked quadratically on a long mismatch).
  .regex(/^[ \p{L}\p{N}_-]+$/u, 'Use letters, numbers, spaces, - and _');
export const createChannelBody = z.object({
  name: channelName,
  type: z.enum(['public', 'private']).default('public'),
});
export const updateChannelBody = z.object({ name: channelName });
export const directMessageBody = z.object({ directMessageMemberId: id });
export const joinedChannelsResponse = z.object({
  channels: z.array(channel),
  channelMembers: z.array(channelMember),
  /** Every role of the joined channels, so permissions can be evaluated on the device (offline too). */
  channelRoles: z.array(channelRole).optional(),
});
export type JoinedChannels = z.infer<typeof joinedChannelsResponse>;
/** Creating, joining or opening a channel: the channel and the caller's membership. */
export const channelWithMembership = z.object({ channel, channelMember });
/** GET channels: the channels the caller may browse. */
export const channelsResponse = z.object({ data: z.array(channel) });
/** PUT channels/{channelId}: the renamed channel. */
export const channelResponse = z.object({ channel });

export const channelRef = z.object({ institutionId: id, channelId: id });
export const joinChannelPayload = channelRef;

export const resetUnreadCountPayload = channelRef;
