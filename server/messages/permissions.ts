// What a channel member may do with messages: the one place message services ask, built on the spec §6
// evaluation (schemas/permissions.ts via server/channels/permissions.ts).
import { and, eq, ne } from 'drizzle-orm';
import type { ChannelPermissions } from '../../schemas/permissions.ts';
import type { Mention } from '../../schemas/protocol/index.ts';
import type { ChannelAccess } from '../access.ts';
import { permissionsIn } from '../channels/permissions.ts';
import type { Db } from '../db/client.ts';
import { channelMembers } from '../db/schema.ts';
import { forbidden } from '../errors.ts';
import type { MessageRow } from './wire.ts';

const permissionsOf = (db: Db, access: ChannelAccess): Promise<ChannelPermissions> =>
  permissionsIn(db, access.channel, access.channelMember);

/** In a direct message, has the other person blocked the caller? */
async function blockedByOther(db: Db, access: ChannelAccess): Promise<boolean> {
  if (access.channel.type !== 'direct_message') return false;
  const rows = await db
    .select({ id: channelMembers.id })
    .from(channelMembers)
    .where(
      and(
        eq(channelMembers.channelId, access.channel.id),
        ne(channelMembers.memberId, access.member.id),
        eq(channelMembers.blocked, true),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Posting needs canPost, mentions need canTag, and nobody posts to someone who blocked them. */
export async function requirePostPermission(
  db: Db,
  access: ChannelAccess,
  input: { mentions?: readonly Mention[] | undefined },
): Promise<void> {
  const [permissions, blocked] = await Promise.all([permissionsOf(db, access), blockedByOther(db, access)]);
  if (!permissions.canPost) throw forbidden('You cannot post in this channel');
  if (blocked) throw forbidden('You cannot message this person');
  if ((input.mentions?.length ?? 0) > 0 && !permissions.canTag)
    throw forbidden('You cannot mention people in this channel');
}

const mentionKey = (m: Mention) => `${m.type}:${m.id}`;

/**
 * Editing: only the author. Mentions the message did not have before need canTag; keeping the old ones
 * does not, so losing canTag never locks someone out of fixing a typo.
 */
export async function requireEditPermission(
  db: Db,
  access: ChannelAccess,
  message: MessageRow,
  mentions: readonly Mention[] | undefined,
): Promise<void> {
  if (message.memberId !== access.member.id) throw forbidden('You can only edit your own messages');
  if (await blockedByOther(db, access)) throw forbidden('You cannot message this person');
  const before = new Set(message.mentions.map(mentionKey));
  const added = (mentions ?? []).filter((m) => !before.has(mentionKey(m)));
  if (added.length > 0 && !(await permissionsOf(db, access)).canTag)
    throw forbidden('You cannot mention people in this channel');
}

/**
 * Deleting: the author, or a member whose channel roles grant canDeleteMessage (spec §6; an ownership role
 * grants it). Being a workspace owner or admin grants nothing in a channel (decision 0080). In a direct
 * message only the author.
 */
export async function requireDeletePermission(
  db: Db,
  access: ChannelAccess,
  message: MessageRow,
): Promise<void> {
  if (message.memberId === access.member.id) return;
  if (access.channel.type === 'direct_message') throw forbidden('You cannot delete this message');
  if ((await permissionsOf(db, access)).canDeleteMessage) return;
  throw forbidden('You cannot delete this message');
}

/**
 * Pinning and unpinning: canPinMessage (spec §6; in a direct message both people may, unless the other
 * one blocked the caller).
 */
export async function requirePinPermission(db: Db, access: ChannelAccess): Promise<void> {
  const [permissions, blocked] = await Promise.all([permissionsOf(db, access), blockedByOther(db, access)]);
  if (!permissions.canPinMessage) throw forbidden('You cannot pin messages in this channel');
  if (blocked) throw forbidden('You cannot message this person');
}

/** Reacting: any member, except in a direct message whose other person blocked the caller. */
export async function requireReactPermission(db: Db, access: ChannelAccess): Promise<void> {
  if (await blockedByOther(db, access)) throw forbidden('You cannot message this person');
}

/** Closing a poll: its author or a channel manager (ownership role; decision 0080). */
export async function requireClosePollPermission(
  db: Db,
  access: ChannelAccess,
  message: MessageRow,
): Promise<void> {
  if (message.memberId === access.member.id) return;
  if ((await permissionsOf(db, access)).canManage) return;
  throw forbidden('Only the author of the poll can close it');
}
