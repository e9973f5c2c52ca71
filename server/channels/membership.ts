// Who is in a channel and how: list members (optionally by role), add and remove people, the caller's own
// settings (mute) and blocking in direct messages.
// Membership changes move the affected users' sockets in or out of the channel's room and tell them to
// reload their joined channels.
import { and, eq, inArray } from 'drizzle-orm';
import type { ChannelMember, ChannelMemberEntry, ChannelType } from '../../schemas/protocol/index.ts';
import { requireChannel, requireMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMemberRoles, channelMembers, channelRoles, members, users } from '../db/schema.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { toMember } from '../services/workspace-members.ts';
import type { ChannelServiceContext } from './context.ts';
import { announceChannelMembers } from './member-events.ts';
import { canSee, membershipOf, requireChannelManager, standingIn } from './permissions.ts';
import { addChannelMember } from './setup.ts';
import { channelMemberView, channelMemberViews } from './views.ts';

/** The channel's people with their roles; `roleId` keeps only the holders of that role. */
export async function listChannelMembers(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  roleId?: string,
): Promise<ChannelMemberEntry[]> {
  const { db } = ctx;
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  if (!canSee(channel, member, await standingIn(db, member, channel))) throw notFound('Channel not found');
  let holders: Set<string> | null = null;
  if (roleId) {
    const [role] = await db
      .select()
      .from(channelRoles)
      .where(and(eq(channelRoles.id, roleId), eq(channelRoles.channelId, channelId)))
      .limit(1);
    if (!role) throw notFound('Role not found');
    // Everyone holds the default role, so filtering by it lists everyone.
    if (!role.isDefault) {
      const links = await db
        .select({ channelMemberId: channelMemberRoles.channelMemberId })
        .from(channelMemberRoles)
        .where(eq(channelMemberRoles.roleId, roleId));
      holders = new Set(links.map((l) => l.channelMemberId));
    }
  }
  const rows = await db
    .select({ channelMember: channelMembers, member: members, user: users })
    .from(channelMembers)
    .innerJoin(members, eq(members.id, channelMembers.memberId))
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(channelMembers.channelId, channelId))
    .orderBy(users.name);
  const kept = holders ? rows.filter((r) => holders.has(r.channelMember.id)) : rows;
  const [views, online] = await Promise.all([
    channelMemberViews(
      db,
      kept.map((r) => r.channelMember),
    ),
    ctx.realtime.onlineUserIds(institutionId),
  ]);
  return kept.map((r, i) => ({
    channelMember: views[i] as ChannelMember,
    member: toMember(r.member, r.user, online.has(r.user.id)),
  }));
}

/** These ids as members of this workspace; a 400 when any is not (never saying whose workspace it is). */
async function requireWorkspaceMembers(db: Db, institutionId: string, memberIds: string[]) {
  const unique = [...new Set(memberIds)];
  const rows = await db
    .select({ id: members.id, userId: members.userId })
    .from(members)
    .where(and(eq(members.institutionId, institutionId), inArray(members.id, unique)));
  if (rows.length !== unique.length) throw badRequest('Only members of this workspace can be added');
  return rows;
}

function refuseDirectMessage(type: ChannelType, what: string) {
  if (type === 'direct_message') throw badRequest(`You cannot ${what} a direct message`);
}

/** Adds workspace members with the default role; needs canAddMembers (an ownership role grants it). */
export async function addChannelMembers(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  memberIds: string[],
): Promise<ChannelMemberEntry[]> {
  const { db } = ctx;
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  const standing = await standingIn(db, member, channel);
  if (!canSee(channel, member, standing)) throw notFound('Channel not found');
  refuseDirectMessage(channel.type, 'add people to');
  if (!standing.permissions.canAddMembers) throw forbidden('You cannot add members to this channel');
  const targets = await requireWorkspaceMembers(db, institutionId, memberIds);
  const added = await db.transaction(async (tx) => {
    const result: string[] = [];
    for (const t of targets) if ((await addChannelMember(tx, channelId, t.id)).added) result.push(t.userId);
    return result;
  });
  for (const addedUser of added) {
    ctx.realtime.joinChannel(addedUser, channelId);
    ctx.broadcast.toUser(addedUser, 'refresh', { value: 'joinedChannels' });
  }
  if (added.length > 0) announceChannelMembers(ctx, channelId);
  const all = await listChannelMembers(ctx, userId, institutionId, channelId);
  const named = new Set(memberIds);
  return all.filter((e) => named.has(e.member.id));
}

/** True when every holder of the channel's ownership role is among `leaving`. */
export async function wouldLoseEveryOwner(db: Db, channelId: string, leaving: Set<string>): Promise<boolean> {
  const owners = await db
    .select({ memberId: channelMembers.memberId })
    .from(channelMembers)
    .innerJoin(channelMemberRoles, eq(channelMemberRoles.channelMemberId, channelMembers.id))
    .innerJoin(channelRoles, eq(channelRoles.id, channelMemberRoles.roleId))
    .where(and(eq(channelMembers.channelId, channelId), eq(channelRoles.isOwnershipRole, true)));
  return owners.length > 0 && owners.every((o) => leaving.has(o.memberId));
}

/** Removes people; only the channel's managers (ownership role). The last owner cannot be removed. */
export async function removeChannelMembers(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  memberIds: string[],
): Promise<{ ok: true }> {
  const { db } = ctx;
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  if (!canSee(channel, member, await standingIn(db, member, channel))) throw notFound('Channel not found');
  refuseDirectMessage(channel.type, 'remove people from');
  await requireChannelManager(db, member, channel);
  if (channel.isDefault) throw badRequest('Nobody can be removed from a default channel');
  const targets = await requireWorkspaceMembers(db, institutionId, memberIds);
  const removedUsers = await db.transaction(async (tx) => {
    const leaving = new Set(targets.map((t) => t.id));
    if (await wouldLoseEveryOwner(tx, channelId, leaving))
      throw badRequest('The channel would have no owner: transfer ownership first');
    const removed = await tx
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), inArray(channelMembers.memberId, [...leaving])))
      .returning({ memberId: channelMembers.memberId });
    const removedIds = new Set(removed.map((r) => r.memberId));
    return targets.filter((t) => removedIds.has(t.id)).map((t) => t.userId);
  });
  for (const removedUser of removedUsers) {
    ctx.realtime.leaveChannel(removedUser, channelId);
    ctx.broadcast.toUser(removedUser, 'refresh', { value: 'joinedChannels' });
  }
  if (removedUsers.length > 0) announceChannelMembers(ctx, channelId);
  return { ok: true };
}

async function requireOwnMembership(db: Db, userId: string, institutionId: string, channelId: string) {
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  const row = await membershipOf(db, channelId, member.id);
  // Someone outside a private channel or DM learns nothing about it.
  if (!row) {
    if (channel.type === 'public') throw forbidden('You are not a member of this channel');
    throw notFound('Channel not found');
  }
  return { member, channel, row };
}

/** The caller's own settings for a channel (today: muting). */
export async function updateOwnMembership(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  settings: { muted?: boolean | undefined },
): Promise<ChannelMember> {
  const { row } = await requireOwnMembership(ctx.db, userId, institutionId, channelId);
  const [updated] = await ctx.db
    .update(channelMembers)
    .set({ ...(settings.muted !== undefined ? { muted: settings.muted } : {}) })
    .where(eq(channelMembers.id, row.id))
    .returning();
  if (!updated) throw notFound('Channel not found');
  ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  return channelMemberView(ctx.db, updated);
}

/** Blocks (or unblocks) the other person of a direct message: their posts here are refused meanwhile. */
export async function setBlocked(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  blocked: boolean,
): Promise<ChannelMember> {
  const { channel, row } = await requireOwnMembership(ctx.db, userId, institutionId, channelId);
  if (channel.type !== 'direct_message') throw badRequest('Only a direct message can be blocked');
  const [updated] = await ctx.db
    .update(channelMembers)
    .set({ blocked })
    .where(eq(channelMembers.id, row.id))
    .returning();
  if (!updated) throw notFound('Channel not found');
  ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  return channelMemberView(ctx.db, updated);
}
