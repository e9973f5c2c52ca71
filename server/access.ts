// Who may touch what: workspace membership and channel membership checks shared by routes and socket
// handlers. An id from another workspace is answered exactly like an id that does not exist.
import { and, eq } from 'drizzle-orm';
import type { ChannelMemberRow, ChannelRow } from './channels/wire.ts';
import type { Db } from './db/client.ts';
import { channelMembers, channels, members } from './db/schema.ts';
import { forbidden, notFound } from './errors.ts';

export type MemberRow = typeof members.$inferSelect;

/** The caller's member record in a workspace; 403 when they are not a member (or it does not exist). */
export async function requireMember(db: Db, institutionId: string, userId: string): Promise<MemberRow> {
  const [row] = await db
    .select()
    .from(members)
    .where(and(eq(members.institutionId, institutionId), eq(members.userId, userId)))
    .limit(1);
  if (!row) throw forbidden('You are not a member of this workspace');
  return row;
}

const ADMIN_ROLES = new Set(['primary_owner', 'owner', 'admin']);
export const isWorkspaceAdmin = (m: Pick<MemberRow, 'role'>) => ADMIN_ROLES.has(m.role);

export async function requireWorkspaceAdmin(
  db: Db,
  institutionId: string,
  userId: string,
): Promise<MemberRow> {
  const m = await requireMember(db, institutionId, userId);
  if (!isWorkspaceAdmin(m)) throw forbidden('Only workspace owners and admins can do that');
  return m;
}

/** A channel of this workspace; 404 for a channel of another workspace. */
export async function requireChannel(db: Db, institutionId: string, channelId: string): Promise<ChannelRow> {
  const [row] = await db
    .select()
    .from(channels)
    .where(and(eq(channels.id, channelId), eq(channels.institutionId, institutionId)))
    .limit(1);
  if (!row) throw notFound('Channel not found');
  return row;
}

export interface ChannelAccess {
  member: MemberRow;
  channel: ChannelRow;
  channelMember: ChannelMemberRow;
}

/** Workspace member, channel of that workspace, and a member of the channel: else 403 / 404. */
export async function requireChannelMember(
  db: Db,
  institutionId: string,
  channelId: string,
  userId: string,
): Promise<ChannelAccess> {
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  const [channelMember] = await db
    .select()
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.memberId, member.id)))
    .limit(1);
  if (!channelMember) throw forbidden('You are not a member of this channel');
  return { member, channel, channelMember };
}

/**
 * Whether the user is a member of this channel of this workspace, in one statement: the hot path of a
 * reconnect, where every channel is joined again. A caller that needs the reason for a "no" asks
 * requireChannelMember.
 */
export async function isChannelMember(
  db: Db,
  institutionId: string,
  channelId: string,
  userId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: channelMembers.id })
    .from(channelMembers)
    .innerJoin(members, eq(members.id, channelMembers.memberId))
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .where(
      and(
        eq(channelMembers.channelId, channelId),
        eq(members.institutionId, institutionId),
        eq(members.userId, userId),
        eq(channels.institutionId, institutionId),
      ),
    )
    .limit(1);
  return row !== undefined;
}
