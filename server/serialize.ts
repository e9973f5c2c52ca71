// Database rows → the wire objects of schemas/protocol.ts. Kept apart from the queries so every route
// answers with exactly the shapes the client parses.
import type {
  Channel,
  ChannelMember,
  ChannelRole,
  Group,
  Institution,
  Invitation,
  Member,
  User,
  UserSession,
} from '../schemas/protocol.ts';
import type {
  channelMembers,
  channelRoles,
  channels,
  groups,
  institutions,
  invitations,
  members,
  sessions,
  users,
} from './db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type InstitutionRow = typeof institutions.$inferSelect;
export type MemberRow = typeof members.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type ChannelRow = typeof channels.$inferSelect;
export type ChannelRoleRow = typeof channelRoles.$inferSelect;
export type ChannelMemberRow = typeof channelMembers.$inferSelect;
export type GroupRow = typeof groups.$inferSelect;

const iso = (d: Date) => d.toISOString();

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  profileImage: row.profileImage,
});

export const toSession = (row: SessionRow, currentSessionId: string): UserSession => ({
  id: row.id,
  userAgent: row.userAgent,
  createdAt: iso(row.createdAt),
  lastUsedAt: iso(row.lastUsedAt),
  current: row.id === currentSessionId,
});

export const toInstitution = (row: InstitutionRow): Institution => ({
  id: row.id,
  name: row.name,
  createdAt: iso(row.createdAt),
});

export const toMember = (row: MemberRow, user: UserRow, isOnline = false): Member => ({
  id: row.id,
  institutionId: row.institutionId,
  role: row.role,
  name: user.name,
  email: user.email,
  profileImage: user.profileImage,
  user: { id: user.id, isOnline },
  createdAt: iso(row.createdAt),
  kind: row.kind,
});

export const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  institutionId: row.institutionId,
  email: row.email,
  createdAt: iso(row.createdAt),
});

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

/** A direct message's key is its two member ids, sorted and joined (server/services/channels.ts). */
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
});

export const toChannelMember = (row: ChannelMemberRow, roleIds: string[]): ChannelMember => ({
  id: row.id,
  channelId: row.channelId,
  memberId: row.memberId,
  unreadCount: row.unreadCount,
  lastReadMessage: row.lastReadMessageId,
  roles: roleIds,
  joinedAt: iso(row.joinedAt),
  muted: row.muted,
  blocked: row.blocked,
  showOnProfile: row.showOnProfile,
});

export const toGroup = (row: GroupRow, memberIds: string[]): Group => ({
  id: row.id,
  institutionId: row.institutionId,
  name: row.name,
  createdBy: row.createdBy,
  memberIds,
  createdAt: iso(row.createdAt),
});
