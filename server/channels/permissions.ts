// A member's permissions in one channel, evaluated with the shared spec §6 module (schemas/permissions.ts)
// from the roles stored in the database, and the access rules built on them: who sees a channel, who
// manages it. Every channel service and server/messages/permissions.ts ask here.
import { and, eq, inArray } from 'drizzle-orm';
import { type ChannelPermissions, channelPermissions } from '../../schemas/permissions.ts';
import { isWorkspaceAdmin, type MemberRow } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMemberRoles, channelMembers, channelRoles, members } from '../db/schema.ts';
import { badRequest, forbidden } from '../errors.ts';
import type { ChannelMemberRow, ChannelRoleRow, ChannelRow } from './wire.ts';

export async function membershipOf(
  db: Db,
  channelId: string,
  memberId: string,
): Promise<ChannelMemberRow | undefined> {
  const [row] = await db
    .select()
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.memberId, memberId)))
    .limit(1);
  return row;
}

/** The roles one channel member holds (not counting the channel's default role, which everyone has). */
export async function rolesHeldBy(db: Db, channelMemberId: string): Promise<ChannelRoleRow[]> {
  const rows = await db
    .select({ role: channelRoles })
    .from(channelMemberRoles)
    .innerJoin(channelRoles, eq(channelRoles.id, channelMemberRoles.roleId))
    .where(eq(channelMemberRoles.channelMemberId, channelMemberId));
  return rows.map((r) => r.role);
}

async function defaultRoleOf(db: Db, channel: ChannelRow): Promise<ChannelRoleRow | null> {
  if (!channel.defaultRoleId) return null;
  const [row] = await db
    .select()
    .from(channelRoles)
    .where(eq(channelRoles.id, channel.defaultRoleId))
    .limit(1);
  return row ?? null;
}

const NO_PERMISSIONS: ChannelPermissions = {
  canPinMessage: false,
  canPost: false,
  canTag: false,
  canAddMembers: false,
  canDeleteMessage: false,
  canManage: false,
};

/** Spec §6 for this member of this channel; nothing at all for someone not in it. */
export async function permissionsIn(
  db: Db,
  channel: ChannelRow,
  channelMember: ChannelMemberRow | undefined,
): Promise<ChannelPermissions> {
  if (!channelMember) return NO_PERMISSIONS;
  const [defaultRole, memberRoles] = await Promise.all([
    defaultRoleOf(db, channel),
    rolesHeldBy(db, channelMember.id),
  ]);
  return channelPermissions({ channel: { type: channel.type, defaultRole }, memberRoles });
}

export interface ChannelStanding {
  channelMember: ChannelMemberRow | undefined;
  permissions: ChannelPermissions;
  /**
   * Holds the channel's ownership role: spec §6 makes ownership roles "the only ones who can manage the
   * channel", so a workspace owner or admin without it does not (decision 0080).
   */
  isManager: boolean;
}

export async function standingIn(db: Db, member: MemberRow, channel: ChannelRow): Promise<ChannelStanding> {
  const channelMember = await membershipOf(db, channel.id, member.id);
  const permissions = await permissionsIn(db, channel, channelMember);
  const isManager = channel.type !== 'direct_message' && permissions.canManage;
  return { channelMember, permissions, isManager };
}

/**
 * Who may see a channel's members and roles: anyone in the workspace for a public channel; for a private
 * one its members and the workspace's admins; for a direct message only its two people. Others get a 404,
 * exactly as for a channel that does not exist.
 */
export function canSee(channel: ChannelRow, member: MemberRow, standing: ChannelStanding): boolean {
  if (standing.channelMember) return true;
  if (channel.type === 'public') return true;
  return channel.type === 'private' && isWorkspaceAdmin(member);
}

/** Rename, delete, manage roles, remove members, answer join requests. */
export async function requireChannelManager(
  db: Db,
  member: MemberRow,
  channel: ChannelRow,
): Promise<ChannelStanding> {
  if (channel.type === 'direct_message') throw badRequest('A direct message has no owner to manage it');
  const standing = await standingIn(db, member, channel);
  if (!standing.isManager) throw forbidden('Only the channel owner can do that');
  return standing;
}

/** The users who hold a channel's ownership role: they hear about join requests. */
export async function channelOwnerUserIds(db: Db, channelId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: members.userId })
    .from(channelMembers)
    .innerJoin(members, eq(members.id, channelMembers.memberId))
    .innerJoin(channelMemberRoles, eq(channelMemberRoles.channelMemberId, channelMembers.id))
    .innerJoin(channelRoles, eq(channelRoles.id, channelMemberRoles.roleId))
    .where(and(eq(channelMembers.channelId, channelId), eq(channelRoles.isOwnershipRole, true)));
  return rows.map((r) => r.userId);
}

/** The user ids behind some workspace member ids. */
export async function userIdsOf(db: Db, memberIds: string[]): Promise<string[]> {
  if (memberIds.length === 0) return [];
  const rows = await db
    .select({ userId: members.userId })
    .from(members)
    .where(inArray(members.id, memberIds));
  return rows.map((r) => r.userId);
}
