// Channels, their roles and the caller's membership record; creating and listing channels.
import { z } from 'zod';
import { CHANNEL_DESCRIPTION_MAX, NAME_MAX } from './limits.ts';
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
  /** What the channel is for, shown under its name (issue 15 item 2); absent from an older server. */
  description: z.string().nullable().optional(),
});
export type Channel = z.infer<typeof channel>;

export const channelMember = z.object({
  id,
  channelId: id,
  memberId: id,
  unreadCount: z.number().int().nonnegative(),
  /**
   * The channel's seq when `unreadCount` was counted: a live message with a higher seq is not in the count,
   * one at or below it already is (so a count and the messages racing it are never added twice).
   */
  unreadThrough: z.number().int().nonnegative().optional(),
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
  /** A default channel (workspace admins, public only): every member, present and future, is in it. */
  isDefault: z.boolean().optional(),
});
/** PUT channels/{channelId}/default: make a public channel default (everyone joins) or not (decision 0054). */
export const channelDefaultBody = z.object({ isDefault: z.boolean() });
export const channelDescription = z
  .string()
  .trim()
  .max(CHANNEL_DESCRIPTION_MAX, `A description has at most ${CHANNEL_DESCRIPTION_MAX} characters`);
/** A new name, a new description ('' or null removes it), or both. */
export const updateChannelBody = z
  .object({ name: channelName.optional(), description: channelDescription.nullable().optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: 'Give the channel a new name or description',
  });
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
/**
 * GET channels/{channelId}/lookup: what a channel address is to the caller, for a link to a channel not on
 * the device (decision 0049). A 404 "Channel not found" when there is none (or it is someone else's direct
 * message); a private channel's name is withheld from people outside it.
 */
export const channelLookupResponse = z.object({
  type: z.enum(['public', 'private', 'direct_message']),
  isMember: z.boolean(),
  name: z.string().nullable(),
});
export type ChannelLookup = z.infer<typeof channelLookupResponse>;

export const channelRef = z.object({ institutionId: id, channelId: id });
export const joinChannelPayload = channelRef;

export const resetUnreadCountPayload = channelRef;
