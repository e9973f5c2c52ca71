// What the person may do in one channel, from what the store holds (works offline): the spec §6 rule
// of schemas/permissions.ts over the stored roles, plus membership and direct-message blocking, with a
// sentence the composer can show when posting is not possible.
import type { ChannelDoc, ChannelMemberDoc } from '../../schemas/collections.ts';
import {
  CHANNEL_PERMISSION_FLAGS,
  type ChannelPermissionFlag,
  type ChannelPermissions,
  channelPermissions,
  type RoleFlags,
} from '../../schemas/permissions.ts';
import type { ChannelRole } from '../../schemas/protocol/index.ts';

export const NOT_MEMBER_REASON = 'Join this channel to post';
export const NO_POST_PERMISSION_REASON = "You don't have permission to post in this channel";
export const YOU_BLOCKED_REASON = 'You blocked this person';
export const BLOCKED_BY_OTHER_REASON = 'This person is not available';

export interface ChannelAccess extends ChannelPermissions {
  isMember: boolean;
  /** The caller holds an ownership role (manages the channel). */
  isOwner: boolean;
  /** Direct messages: the caller blocked the other person. */
  blockedByMe: boolean;
  /** Direct messages: the other person blocked the caller. */
  blockedByOther: boolean;
  /** Why canPost is false (null when posting is possible). */
  cannotPostReason: string | null;
}

export interface ChannelAccessInput {
  channel: Pick<ChannelDoc, 'type' | 'defaultRole'>;
  /** The caller's membership; null when not a member. */
  membership: Pick<ChannelMemberDoc, 'roles' | 'blocked'> | null;
  /** The channel's roles as stored (ids in membership.roles are looked up here). */
  roles: readonly ChannelRole[];
  /** Direct messages: the other person's membership, when the store has it. */
  otherMembership?: Pick<ChannelMemberDoc, 'blocked'> | null;
}

/** Nothing allowed: a non-member's permissions. */
const NONE = {
  ...(Object.fromEntries(CHANNEL_PERMISSION_FLAGS.map((flag) => [flag, false])) as Record<
    ChannelPermissionFlag,
    false
  >),
  canManage: false,
} satisfies ChannelPermissions;

export function channelAccess({
  channel,
  membership,
  roles,
  otherMembership,
}: ChannelAccessInput): ChannelAccess {
  if (!membership) {
    return {
      ...NONE,
      isMember: false,
      isOwner: false,
      blockedByMe: false,
      blockedByOther: false,
      cannotPostReason: NOT_MEMBER_REASON,
    };
  }
  const byId = new Map(roles.map((r) => [r.id, r]));
  const memberRoles: RoleFlags[] = membership.roles.flatMap((id) => {
    const role = byId.get(id);
    return role ? [role] : [];
  });
  // The channel doc embeds its default role; a stored copy (edited since) is fresher.
  const storedDefault = channel.defaultRole ? byId.get(channel.defaultRole.id) : undefined;
  const permissions = channelPermissions({
    channel: { type: channel.type, defaultRole: storedDefault ?? channel.defaultRole },
    memberRoles,
  });
  const isDm = channel.type === 'direct_message';
  const blockedByMe = isDm && membership.blocked === true;
  const blockedByOther = isDm && otherMembership?.blocked === true;
  const canPost = permissions.canPost && !blockedByMe && !blockedByOther;
  let cannotPostReason: string | null = null;
  if (blockedByMe) cannotPostReason = YOU_BLOCKED_REASON;
  else if (blockedByOther) cannotPostReason = BLOCKED_BY_OTHER_REASON;
  else if (!permissions.canPost) cannotPostReason = NO_POST_PERMISSION_REASON;
  return {
    ...permissions,
    canPost,
    isMember: true,
    isOwner: !isDm && memberRoles.some((r) => r.isOwnershipRole),
    blockedByMe,
    blockedByOther,
    cannotPostReason,
  };
}
