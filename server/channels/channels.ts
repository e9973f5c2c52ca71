// Channels of a workspace: browse, create, join, leave, rename and describe, delete, and direct messages between two
// members. Every function starts from the caller's workspace membership (403 for outsiders) and treats a
// channel id of another workspace as not found.
import { randomUUID } from 'node:crypto';
import { and, eq, exists, inArray, ne, or } from 'drizzle-orm';
import type { Channel, ChannelLookup, ChannelMember, ChannelType } from '../../schemas/protocol/index.ts';
import { isWorkspaceAdmin, requireChannel, requireMember } from '../access.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channelRoles, channels, members } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { createFileStore } from '../files/file-store.ts';
import { channelFileKeys } from '../files/files.ts';
import { discardBytes } from '../files/stored-bytes.ts';
import type { RealtimeControls } from '../realtime-controls.ts';
import { addEveryone, announceNewMembers, requireCanBeDefault } from './default-channels.ts';
import { announceChannelMembers } from './member-events.ts';
import { wouldLoseEveryOwner } from './membership.ts';
import { membershipOf, requireChannelManager } from './permissions.ts';
import { addChannelMember, createChannelWithRoles, setUpRoles } from './setup.ts';
import { channelMemberView, channelMemberViews, channelView, channelViews } from './views.ts';
import { type ChannelMemberRow, type ChannelRow, DM_KEY_SEPARATOR, toChannelRole } from './wire.ts';

type Ctx = Pick<AppContext, 'db' | 'broadcast'> & {
  realtime: Pick<RealtimeControls, 'joinChannel' | 'leaveChannel'>;
};
/** Deleting a channel also removes its files' bytes, so it needs the store's settings. */
type DeleteCtx = Ctx & Pick<AppContext, 'config' | 'secrets' | 'log'>;

export interface ChannelWithMembership {
  channel: Channel;
  channelMember: ChannelMember;
}

async function withMembership(
  db: Db,
  channel: ChannelRow,
  row: ChannelMemberRow,
): Promise<ChannelWithMembership> {
  return { channel: await channelView(db, channel), channelMember: await channelMemberView(db, row) };
}

/** Channel names are unique per workspace among channels (direct messages have no chosen name). */
async function assertNameFree(db: Db, institutionId: string, name: string, exceptId?: string) {
  const clash = await db
    .select({ id: channels.id })
    .from(channels)
    .where(
      and(
        eq(channels.institutionId, institutionId),
        eq(channels.name, name),
        ne(channels.type, 'direct_message'),
        exceptId ? ne(channels.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash.length > 0) throw conflict('A channel with this name already exists');
}

/** What the caller may browse: public channels, and private ones they are in. Never direct messages. */
export async function browsableChannels(db: Db, userId: string, institutionId: string): Promise<Channel[]> {
  const member = await requireMember(db, institutionId, userId);
  const rows = await db
    .select()
    .from(channels)
    .where(
      and(
        eq(channels.institutionId, institutionId),
        or(
          eq(channels.type, 'public'),
          and(
            eq(channels.type, 'private'),
            exists(
              db
                .select({ id: channelMembers.id })
                .from(channelMembers)
                .where(
                  and(eq(channelMembers.channelId, channels.id), eq(channelMembers.memberId, member.id)),
                ),
            ),
          ),
        ),
      ),
    )
    .orderBy(channels.name);
  return channelViews(db, rows);
}

export async function joinedChannels(db: Db, userId: string, institutionId: string) {
  const member = await requireMember(db, institutionId, userId);
  const rows = await db
    .select({ channel: channels, channelMember: channelMembers })
    .from(channelMembers)
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .where(and(eq(channelMembers.memberId, member.id), eq(channels.institutionId, institutionId)))
    .orderBy(channels.createdAt);
  const channelIds = rows.map((r) => r.channel.id);
  const roles = channelIds.length
    ? await db.select().from(channelRoles).where(inArray(channelRoles.channelId, channelIds))
    : [];
  return {
    channelRoles: roles.map(toChannelRole),
    channels: await channelViews(
      db,
      rows.map((r) => r.channel),
    ),
    channelMembers: await channelMemberViews(
      db,
      rows.map((r) => r.channelMember),
    ),
  };
}

export async function createChannel(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  input: { name: string; type: Exclude<ChannelType, 'direct_message'>; isDefault?: boolean | undefined },
): Promise<ChannelWithMembership> {
  const member = await requireMember(ctx.db, institutionId, userId);
  const isDefault = input.isDefault === true;
  // Spec §5–§6: only owners and admins create default channels, which everyone is put into.
  if (isDefault && !isWorkspaceAdmin(member))
    throw forbidden('Only workspace owners and admins can create default channels');
  if (isDefault) requireCanBeDefault(input);
  const { channel, channelMember, added } = await ctx.db.transaction(async (tx) => {
    await assertNameFree(tx, institutionId, input.name);
    const created = await createChannelWithRoles(tx, {
      institutionId,
      name: input.name,
      type: input.type,
      isDefault,
      createdBy: member.id,
    });
    const { row } = await addChannelMember(
      tx,
      created.channel.id,
      member.id,
      created.ownershipRole ? [created.ownershipRole.id] : [],
    );
    const added = isDefault ? await addEveryone(tx, institutionId, created.channel.id) : [];
    return { channel: created.channel, channelMember: row, added };
  });
  ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  announceNewMembers(ctx, channel.id, added);
  return withMembership(ctx.db, channel, channelMember);
}

/**
 * What a channel address is to the caller (a link to a channel not on their device): public or private,
 * whether they are in it, and a name only where they may read it. Someone else's direct message does not
 * exist for them.
 */
export async function lookUpChannel(
  db: Db,
  userId: string,
  institutionId: string,
  channelId: string,
): Promise<ChannelLookup> {
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  const isMember = (await membershipOf(db, channelId, member.id)) !== undefined;
  if (channel.type === 'direct_message' && !isMember) throw notFound('Channel not found');
  const readable = channel.type === 'public' || (channel.type === 'private' && isMember);
  return { type: channel.type, isMember, name: readable ? channel.name : null };
}

/** Joining a public channel; joining one you are in already answers with your membership. */
export async function joinChannel(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  channelId: string,
): Promise<ChannelWithMembership> {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  const current = await membershipOf(ctx.db, channelId, member.id);
  if (current) return withMembership(ctx.db, channel, current);
  if (channel.type !== 'public') throw forbidden('This channel is private');
  const { row, added } = await addChannelMember(ctx.db, channelId, member.id);
  if (added) {
    // Their open sockets hear the channel at once, not only once the app has joined its rooms.
    ctx.realtime.joinChannel(userId, channelId);
    ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
    announceChannelMembers(ctx, channelId);
  }
  return withMembership(ctx.db, channel, row);
}

export async function leaveChannel(ctx: Ctx, userId: string, institutionId: string, channelId: string) {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  if (channel.isDefault) throw badRequest('You cannot leave a default channel');
  if (channel.type === 'direct_message') throw badRequest('You cannot leave a direct message');
  const removed = await ctx.db.transaction(async (tx) => {
    // The only owner may leave an otherwise empty channel, but not strand the people still in it.
    const others = await tx
      .select({ id: channelMembers.id })
      .from(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), ne(channelMembers.memberId, member.id)))
      .limit(1);
    if (others.length > 0 && (await wouldLoseEveryOwner(tx, channelId, new Set([member.id]))))
      throw badRequest("You are this channel's only owner: transfer ownership before leaving");
    return tx
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.memberId, member.id)))
      .returning({ id: channelMembers.id });
  });
  // Leaving twice is not an error: a retried request must not fail the second time.
  if (removed.length > 0) {
    ctx.realtime.leaveChannel(userId, channelId);
    ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
    announceChannelMembers(ctx, channelId);
  }
  return { ok: true as const };
}

/** Renames a channel, describes it, or both (PUT .../channels/:channelId): its managers only. */
export async function updateChannel(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  channelId: string,
  change: { name?: string; description?: string | null },
): Promise<Channel> {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  await requireChannelManager(ctx.db, member, channel);
  const set = {
    ...(change.name === undefined ? {} : { name: change.name }),
    // An empty description is none: the intro offers "Add a description" again.
    ...(change.description === undefined ? {} : { description: change.description || null }),
  };
  const updated = await ctx.db.transaction(async (tx) => {
    if (change.name !== undefined) await assertNameFree(tx, institutionId, change.name, channelId);
    const [row] = await tx.update(channels).set(set).where(eq(channels.id, channelId)).returning();
    return row;
  });
  if (!updated) throw notFound('Channel not found');
  ctx.broadcast.toChannel(channelId, 'refresh', { value: 'joinedChannels' });
  return channelView(ctx.db, updated);
}

export async function deleteChannel(
  ctx: DeleteCtx,
  userId: string,
  institutionId: string,
  channelId: string,
) {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  await requireChannelManager(ctx.db, member, channel);
  if (channel.isDefault) throw badRequest('A default channel cannot be deleted');
  const affected = await ctx.db
    .select({ userId: members.userId })
    .from(channelMembers)
    .innerJoin(members, eq(members.id, channelMembers.memberId))
    .where(eq(channelMembers.channelId, channelId));
  // Messages, roles, memberships and file rows go with the channel (ON DELETE CASCADE); the files' bytes
  // are not rows, so they are removed from the store here (a failed removal is retried by the sweep).
  const fileKeys = await channelFileKeys(ctx.db, channelId);
  await ctx.db.delete(channels).where(eq(channels.id, channelId));
  const store = createFileStore(ctx.config, ctx.secrets.fileSigningKey);
  await discardBytes({ db: ctx.db, store, log: ctx.log }, fileKeys);
  for (const { userId: affectedUser } of affected) {
    ctx.realtime.leaveChannel(affectedUser, channelId);
    ctx.broadcast.toUser(affectedUser, 'refresh', { value: 'joinedChannels' });
  }
  return { ok: true as const };
}

export const directMessageKey = (a: string, b: string) => [a, b].sort().join(DM_KEY_SEPARATOR);

/**
 * The direct message between the caller and another member of the workspace, created on first use.
 * One per pair (a unique key), so two first messages racing on two nodes end in the same channel.
 * A direct message with oneself is allowed: it is the notes-to-self channel, with one member.
 */
export async function openDirectMessage(
  ctx: Ctx,
  userId: string,
  institutionId: string,
  otherMemberId: string,
): Promise<ChannelWithMembership> {
  const me = await requireMember(ctx.db, institutionId, userId);
  const [other] = await ctx.db
    .select()
    .from(members)
    .where(and(eq(members.id, otherMemberId), eq(members.institutionId, institutionId)))
    .limit(1);
  if (!other) throw notFound('Member not found');
  const key = directMessageKey(me.id, other.id);

  const { channel, created } = await ctx.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(channels)
      .values({
        id: randomUUID(),
        institutionId,
        name: key,
        type: 'direct_message',
        isDefault: false,
        directMessageKey: key,
        createdBy: me.id,
      })
      .onConflictDoNothing({ target: channels.directMessageKey })
      .returning();
    if (inserted[0]) {
      const { channel } = await setUpRoles(tx, inserted[0]);
      for (const memberId of new Set([me.id, other.id])) await addChannelMember(tx, channel.id, memberId);
      return { channel, created: true };
    }
    const [existing] = await tx.select().from(channels).where(eq(channels.directMessageKey, key)).limit(1);
    if (!existing) throw new Error('direct message vanished after conflict');
    return { channel: existing, created: false };
  });

  // A direct message always keeps both members; re-adding is a no-op and repairs nothing in normal use.
  const { row } = await addChannelMember(ctx.db, channel.id, me.id);
  if (created) {
    for (const u of new Set([userId, other.userId]))
      ctx.broadcast.toUser(u, 'refresh', { value: 'joinedChannels' });
  }
  return withMembership(ctx.db, channel, row);
}
