// Creating channels with their roles and adding members: shared by workspace creation (the default
// `general` channel), channel creation and direct messages, always inside the caller's transaction.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { channelMemberRoles, channelMembers, channelRoles, channels } from '../db/schema.ts';
import { joinedReadPosition } from '../messages/unread.ts';
import type { ChannelMemberRow, ChannelRoleRow, ChannelRow } from './wire.ts';

type RoleSpec = Omit<typeof channelRoles.$inferInsert, 'id' | 'channelId' | 'createdAt'>;

/** Everyone in an ordinary channel: may post and tag, nothing that touches others' messages or membership. */
export const CHANNEL_DEFAULT_ROLE: RoleSpec = {
  name: 'member',
  isDefault: true,
  isOwnershipRole: false,
  canPost: true,
  canPinMessage: false,
  canTag: true,
  canAddMembers: false,
  canDeleteMessage: false,
};

/** The channel's creator: every permission, and the only channel role that can manage the channel. */
export const CHANNEL_OWNERSHIP_ROLE: RoleSpec = {
  name: 'owner',
  isDefault: false,
  isOwnershipRole: true,
  canPost: true,
  canPinMessage: true,
  canTag: true,
  canAddMembers: true,
  canDeleteMessage: true,
};

/** Spec §6: in a direct message everyone can pin and post, but cannot tag or delete messages. */
export const DIRECT_MESSAGE_DEFAULT_ROLE: RoleSpec = {
  name: 'member',
  isDefault: true,
  isOwnershipRole: false,
  canPost: true,
  canPinMessage: true,
  canTag: false,
  canAddMembers: false,
  canDeleteMessage: false,
};

export interface CreatedChannel {
  channel: ChannelRow;
  defaultRole: ChannelRoleRow;
  ownershipRole: ChannelRoleRow | null;
}

async function insertRole(db: Db, channelId: string, spec: RoleSpec): Promise<ChannelRoleRow> {
  const [row] = await db
    .insert(channelRoles)
    .values({ id: randomUUID(), channelId, ...spec })
    .returning();
  if (!row) throw new Error('role insert returned nothing');
  return row;
}

/** Adds the roles to a freshly inserted channel and points the channel at its default role. */
export async function setUpRoles(db: Db, channel: ChannelRow): Promise<CreatedChannel> {
  const isDm = channel.type === 'direct_message';
  const defaultRole = await insertRole(
    db,
    channel.id,
    isDm ? DIRECT_MESSAGE_DEFAULT_ROLE : CHANNEL_DEFAULT_ROLE,
  );
  // Nobody owns a direct message: neither side can rename or delete it.
  const ownershipRole = isDm ? null : await insertRole(db, channel.id, CHANNEL_OWNERSHIP_ROLE);
  const [updated] = await db
    .update(channels)
    .set({ defaultRoleId: defaultRole.id })
    .where(eq(channels.id, channel.id))
    .returning();
  return { channel: updated ?? channel, defaultRole, ownershipRole };
}

export async function createChannelWithRoles(
  db: Db,
  values: Pick<ChannelRow, 'institutionId' | 'name' | 'type' | 'isDefault' | 'createdBy'>,
): Promise<CreatedChannel> {
  const [channel] = await db
    .insert(channels)
    .values({ id: randomUUID(), ...values })
    .returning();
  if (!channel) throw new Error('channel insert returned nothing');
  return setUpRoles(db, channel);
}

/** Adds a workspace member to a channel (a no-op if they are in it already) and returns their row. */
export async function addChannelMember(
  db: Db,
  channelId: string,
  memberId: string,
  roleIds: string[] = [],
): Promise<{ row: ChannelMemberRow; added: boolean }> {
  const inserted = await db
    .insert(channelMembers)
    // Joining starts at the channel's end: what was said before is history, not unread.
    .values({ id: randomUUID(), channelId, memberId, ...joinedReadPosition(channelId) })
    .onConflictDoNothing({ target: [channelMembers.channelId, channelMembers.memberId] })
    .returning();
  const row =
    inserted[0] ??
    (
      await db
        .select()
        .from(channelMembers)
        .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.memberId, memberId)))
        .limit(1)
    )[0];
  if (!row) throw new Error('channel member vanished after insert');
  if (inserted[0] && roleIds.length > 0) {
    await db
      .insert(channelMemberRoles)
      .values(roleIds.map((roleId) => ({ channelMemberId: row.id, roleId })));
  }
  return { row, added: inserted.length > 0 };
}
