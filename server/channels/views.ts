// Channels and channel memberships in their wire shape, loaded in batches (roles are separate rows, unread
// counts computed from read positions).
import { inArray } from 'drizzle-orm';
import type { Channel, ChannelMember } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { channelMemberRoles, channelRoles } from '../db/schema.ts';
import { unreadCounts } from '../messages/unread.ts';
import {
  type ChannelMemberRow,
  type ChannelRoleRow,
  type ChannelRow,
  toChannel,
  toChannelMember,
} from './wire.ts';

export async function channelViews(db: Db, rows: ChannelRow[]): Promise<Channel[]> {
  const roleIds = [...new Set(rows.map((r) => r.defaultRoleId).filter((id): id is string => id !== null))];
  const roles = roleIds.length
    ? await db.select().from(channelRoles).where(inArray(channelRoles.id, roleIds))
    : [];
  const byId = new Map<string, ChannelRoleRow>(roles.map((r) => [r.id, r]));
  return rows.map((row) => toChannel(row, (row.defaultRoleId && byId.get(row.defaultRoleId)) || null));
}

export async function channelView(db: Db, row: ChannelRow): Promise<Channel> {
  const [view] = await channelViews(db, [row]);
  if (!view) throw new Error('channel view missing');
  return view;
}

export async function channelMemberViews(db: Db, rows: ChannelMemberRow[]): Promise<ChannelMember[]> {
  const ids = rows.map((r) => r.id);
  const [links, unread] = await Promise.all([
    ids.length
      ? db.select().from(channelMemberRoles).where(inArray(channelMemberRoles.channelMemberId, ids))
      : [],
    unreadCounts(db, ids),
  ]);
  const rolesOf = new Map<string, string[]>();
  for (const link of links)
    rolesOf.set(link.channelMemberId, [...(rolesOf.get(link.channelMemberId) ?? []), link.roleId]);
  return rows.map((row) => toChannelMember(row, rolesOf.get(row.id) ?? [], unread.get(row.id)));
}

export async function channelMemberView(db: Db, row: ChannelMemberRow): Promise<ChannelMember> {
  const [view] = await channelMemberViews(db, [row]);
  if (!view) throw new Error('channel member view missing');
  return view;
}
