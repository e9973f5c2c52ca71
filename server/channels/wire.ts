// Channels, their roles and their memberships in the wire shape of schemas/protocol/: rows in, wire objects
// out, no queries (server/channels/views.ts loads the role rows these need in batches).
import type { Channel, ChannelMember, ChannelRole } from '../../schemas/protocol/index.ts';
import type { channelMembers, channelRoles, channels } from '../db/schema.ts';

export type ChannelRow = typeof channels.$inferSelect;
export type ChannelRoleRow = typeof channelRoles.$inferSelect;
export type ChannelMemberRow = typeof channelMembers.$inferSelect;

const iso = (d: Date) => d.toISOString();

export const toChannelRole = (row: ChannelRoleRow): ChannelRole => ({
  id: row.id,
  channelId: row.channelId,
  name: row.name,
  isDefault: row.isDefault,
  isOwnershipRole: row.isOwnershipRole,
  canPinMessage: row.canPinMessage,
  canPost: row.canPost,
  canTag: row.canTag,
  canAddMembers: row.canAddMembers,
  canDeleteMessage: row.canDeleteMessage,
});

/** A direct message's key is its two member ids, sorted and joined (directMessageKey in ./channels.ts). */
export const DM_KEY_SEPARATOR = ':';

export const toChannel = (row: ChannelRow, defaultRole: ChannelRoleRow | null): Channel => ({
  id: row.id,
  institutionId: row.institutionId,
  name: row.name,
  type: row.type,
  isDefault: row.isDefault,
  defaultRole: defaultRole ? toChannelRole(defaultRole) : null,
  directMessageMembers: row.directMessageKey ? row.directMessageKey.split(DM_KEY_SEPARATOR) : null,
  createdBy: row.createdBy,
  createdAt: iso(row.createdAt),
  lastSeq: row.lastSeq,
  lastSentMessage:
    row.lastMessageId && row.lastMessageAt
      ? { id: row.lastMessageId, createdAt: iso(row.lastMessageAt) }
      : null,
  description: row.description,
});

/** `unread` is computed from the row's read position (server/messages/unread.ts). */
export const toChannelMember = (
  row: ChannelMemberRow,
  roleIds: string[],
  unread: { count: number; through: number } | undefined,
): ChannelMember => ({
  id: row.id,
  channelId: row.channelId,
  memberId: row.memberId,
  unreadCount: unread?.count ?? 0,
  ...(unread ? { unreadThrough: unread.through } : {}),
  lastReadMessage: row.lastReadMessageId,
  roles: roleIds,
  joinedAt: iso(row.joinedAt),
  muted: row.muted,
  blocked: row.blocked,
  showOnProfile: row.showOnProfile,
});
