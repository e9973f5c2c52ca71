// Channel roles: list, create, edit (the default role too), delete, choose who holds one, and hand the
// ownership role to someone else. Managing needs the ownership role (decision 0080); every change
// tells the channel's people to reload their joined channels (which carry the roles and permissions).
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  ChannelRole,
  createChannelRoleBody,
  UpdateChannelRoleBody,
} from '../../schemas/protocol/index.ts';
import { requireChannel, requireMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMemberRoles, channelMembers, channelRoles, members } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { ChannelServiceContext } from './context.ts';
import { announceChannelMembers } from './member-events.ts';
import { canSee, requireChannelManager, standingIn, userIdsOf } from './permissions.ts';
import { type ChannelRoleRow, toChannelRole } from './wire.ts';

type CreateInput = z.infer<typeof createChannelRoleBody>;

async function requireRole(db: Db, channelId: string, roleId: string): Promise<ChannelRoleRow> {
  const [row] = await db
    .select()
    .from(channelRoles)
    .where(and(eq(channelRoles.id, roleId), eq(channelRoles.channelId, channelId)))
    .limit(1);
  if (!row) throw notFound('Role not found');
  return row;
}

async function assertRoleNameFree(db: Db, channelId: string, name: string, exceptId?: string) {
  const clash = await db
    .select({ id: channelRoles.id })
    .from(channelRoles)
    .where(and(eq(channelRoles.channelId, channelId), sql`lower(${channelRoles.name}) = lower(${name})`))
    .limit(2);
  if (clash.some((r) => r.id !== exceptId)) throw conflict('A role with this name already exists');
}

/** Everyone in the channel (their permissions may have changed) reloads joined channels. */
async function announce(ctx: ChannelServiceContext, channelId: string, alsoUserIds: string[] = []) {
  const rows = await ctx.db
    .select({ userId: members.userId })
    .from(channelMembers)
    .innerJoin(members, eq(members.id, channelMembers.memberId))
    .where(eq(channelMembers.channelId, channelId));
  for (const userId of new Set([...rows.map((r) => r.userId), ...alsoUserIds]))
    ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  // The Members tab shows each member's roles.
  announceChannelMembers(ctx, channelId);
}

async function managerContext(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
) {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  await requireChannelManager(ctx.db, member, channel);
  return { member, channel };
}

/** The channel's roles, default first, then ownership, then by creation. */
export async function listChannelRoles(
  db: Db,
  userId: string,
  institutionId: string,
  channelId: string,
): Promise<ChannelRole[]> {
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  if (!canSee(channel, member, await standingIn(db, member, channel))) throw notFound('Channel not found');
  const rows = await db
    .select()
    .from(channelRoles)
    .where(eq(channelRoles.channelId, channelId))
    .orderBy(
      sql`${channelRoles.isDefault} desc`,
      sql`${channelRoles.isOwnershipRole} desc`,
      asc(channelRoles.createdAt),
      asc(channelRoles.name),
    );
  return rows.map(toChannelRole);
}

export async function createChannelRole(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  input: CreateInput,
): Promise<ChannelRole> {
  await managerContext(ctx, userId, institutionId, channelId);
  const row = await ctx.db.transaction(async (tx) => {
    await assertRoleNameFree(tx, channelId, input.name);
    const [inserted] = await tx
      .insert(channelRoles)
      .values({
        id: randomUUID(),
        channelId,
        name: input.name,
        isDefault: false,
        isOwnershipRole: false,
        canPinMessage: input.canPinMessage,
        canPost: input.canPost,
        canTag: input.canTag,
        canAddMembers: input.canAddMembers,
        canDeleteMessage: input.canDeleteMessage,
      })
      .returning();
    if (!inserted) throw new Error('role insert returned nothing');
    return inserted;
  });
  await announce(ctx, channelId);
  return toChannelRole(row);
}

/** Rename a role or change its flags; the default role included. The ownership role keeps every flag. */
export async function updateChannelRole(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  roleId: string,
  input: UpdateChannelRoleBody,
): Promise<ChannelRole> {
  await managerContext(ctx, userId, institutionId, channelId);
  const role = await requireRole(ctx.db, channelId, roleId);
  const { name, ...flags } = input;
  const changesFlags = Object.values(flags).some((v) => v !== undefined);
  if (role.isOwnershipRole && changesFlags)
    throw badRequest('The owner role always has every permission; only its name can change');
  const row = await ctx.db.transaction(async (tx) => {
    if (name !== undefined) await assertRoleNameFree(tx, channelId, name, roleId);
    const [updated] = await tx
      .update(channelRoles)
      .set({ ...(name !== undefined ? { name } : {}), ...flags })
      .where(eq(channelRoles.id, roleId))
      .returning();
    return updated;
  });
  if (!row) throw notFound('Role not found');
  await announce(ctx, channelId);
  return toChannelRole(row);
}

export async function deleteChannelRole(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  roleId: string,
): Promise<{ ok: true }> {
  await managerContext(ctx, userId, institutionId, channelId);
  const role = await requireRole(ctx.db, channelId, roleId);
  if (role.isDefault) throw badRequest('The default role cannot be deleted');
  if (role.isOwnershipRole) throw badRequest('The owner role cannot be deleted');
  // Holders simply lose it (ON DELETE CASCADE on their links); the default role still applies to them.
  await ctx.db.delete(channelRoles).where(eq(channelRoles.id, roleId));
  await announce(ctx, channelId);
  return { ok: true };
}

/** Channel-member rows of these workspace members; 400 naming the problem when someone is not in the channel. */
async function channelMemberRowsFor(db: Db, channelId: string, memberIds: string[]) {
  const unique = [...new Set(memberIds)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ id: channelMembers.id, memberId: channelMembers.memberId })
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), inArray(channelMembers.memberId, unique)));
  if (rows.length !== unique.length)
    throw badRequest('Everyone given a role must be a member of the channel');
  return rows;
}

/** Makes exactly these channel members (workspace member ids) the holders of the role. */
export async function setRoleMembers(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  roleId: string,
  memberIds: string[],
): Promise<{ members: string[] }> {
  await managerContext(ctx, userId, institutionId, channelId);
  const role = await requireRole(ctx.db, channelId, roleId);
  if (role.isDefault) throw badRequest('Everyone in the channel holds the default role');
  if (role.isOwnershipRole && memberIds.length === 0) throw badRequest('A channel needs at least one owner');
  const targets = await channelMemberRowsFor(ctx.db, channelId, memberIds);
  const before = await ctx.db
    .select({ memberId: channelMembers.memberId })
    .from(channelMemberRoles)
    .innerJoin(channelMembers, eq(channelMembers.id, channelMemberRoles.channelMemberId))
    .where(eq(channelMemberRoles.roleId, roleId));
  await ctx.db.transaction(async (tx) => {
    await tx.delete(channelMemberRoles).where(eq(channelMemberRoles.roleId, roleId));
    if (targets.length > 0)
      await tx.insert(channelMemberRoles).values(targets.map((t) => ({ channelMemberId: t.id, roleId })));
  });
  const affected = [...before.map((b) => b.memberId), ...targets.map((t) => t.memberId)];
  await announce(ctx, channelId, await userIdsOf(ctx.db, affected));
  return { members: targets.map((t) => t.memberId) };
}

/** The ownership role moves to another channel member; the previous holders keep their membership. */
export async function transferOwnership(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  newOwnerMemberId: string,
): Promise<{ members: string[] }> {
  await managerContext(ctx, userId, institutionId, channelId);
  const [ownership] = await ctx.db
    .select()
    .from(channelRoles)
    .where(and(eq(channelRoles.channelId, channelId), eq(channelRoles.isOwnershipRole, true)))
    .orderBy(asc(channelRoles.createdAt))
    .limit(1);
  if (!ownership) throw badRequest('This channel has no owner role');
  const [target] = await ctx.db
    .select({ id: channelMembers.id })
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.memberId, newOwnerMemberId)))
    .limit(1);
  if (!target) throw badRequest('The new owner must be a member of the channel');
  return setRoleMembers(ctx, userId, institutionId, channelId, ownership.id, [newOwnerMemberId]);
}
