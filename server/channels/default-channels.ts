// Default channels (spec §5–§6, decision 0054): every person in the workspace, present and future, is in
// them; nobody leaves or is removed from one (channels.ts, membership.ts) and a new member joins them all
// (services/institutions.ts). Workspace owners and admins make a public channel default or not; the
// workspace's first channel (#general) stays default, so everyone always has one place in common.
import { and, asc, eq } from 'drizzle-orm';
import type { Channel } from '../../schemas/protocol/index.ts';
import { requireChannel, requireWorkspaceAdmin } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channels, members } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import type { RealtimeControls } from '../realtime-controls.ts';
import type { ChannelServiceContext } from './context.ts';
import { announceChannelMembers } from './member-events.ts';
import { addChannelMember } from './setup.ts';
import { channelView } from './views.ts';
import type { ChannelRow } from './wire.ts';

/** Why a channel cannot be default: a private channel would admit everyone to what was kept apart. */
export function requireCanBeDefault(channel: Pick<ChannelRow, 'type'>): void {
  if (channel.type !== 'public') throw badRequest('Only public channels can be default channels');
}

/**
 * Puts every person of the workspace into the channel (agents join where they are asked, not here) and
 * returns the user ids of those newly added, whose sockets must hear the channel.
 */
export async function addEveryone(db: Db, institutionId: string, channelId: string): Promise<string[]> {
  const people = await db
    .select({ id: members.id, userId: members.userId })
    .from(members)
    .where(and(eq(members.institutionId, institutionId), eq(members.kind, 'user')));
  const added: string[] = [];
  for (const person of people) {
    if ((await addChannelMember(db, channelId, person.id)).added) added.push(person.userId);
  }
  return added;
}

/** The newly added hear the channel at once, its members see the change, as on any join. */
export function announceNewMembers(
  ctx: Pick<ChannelServiceContext, 'broadcast'> & { realtime: Pick<RealtimeControls, 'joinChannel'> },
  channelId: string,
  userIds: string[],
): void {
  for (const userId of userIds) {
    ctx.realtime.joinChannel(userId, channelId);
    ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  }
  if (userIds.length > 0) announceChannelMembers(ctx, channelId);
}

/** The workspace's first channel: #general, created with it (or an LTI course's main channel). */
async function firstChannelId(db: Db, institutionId: string): Promise<string | undefined> {
  const [first] = await db
    .select({ id: channels.id })
    .from(channels)
    .where(eq(channels.institutionId, institutionId))
    .orderBy(asc(channels.createdAt), asc(channels.id))
    .limit(1);
  return first?.id;
}

/** PUT channels/{channelId}/default: workspace admins only; making one default adds everyone to it. */
export async function setChannelDefault(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  isDefault: boolean,
): Promise<Channel> {
  await requireWorkspaceAdmin(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  if (channel.type === 'direct_message') throw notFound('Channel not found');
  if (isDefault) requireCanBeDefault(channel);
  if (!isDefault && channel.isDefault && (await firstChannelId(ctx.db, institutionId)) === channelId) {
    throw badRequest(`#${channel.name} stays a default channel, so everyone has one place in common`);
  }
  const { row, added } = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(channels).set({ isDefault }).where(eq(channels.id, channelId)).returning();
    return { row, added: isDefault ? await addEveryone(tx, institutionId, channelId) : [] };
  });
  if (!row) throw notFound('Channel not found');
  // Its members' copies say whether they can leave it; the newly added get the channel itself.
  ctx.broadcast.toChannel(channelId, 'refresh', { value: 'joinedChannels' });
  announceNewMembers(ctx, channelId, added);
  return channelView(ctx.db, row);
}
