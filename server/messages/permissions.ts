// What a channel member may do with messages. One function per action so channel roles (canPost,
// canDeleteMessage, …) can be added here without touching the services that ask.
import { and, eq } from 'drizzle-orm';
import type { ChannelAccess } from '../access.ts';
import { isWorkspaceAdmin } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMemberRoles, channelRoles } from '../db/schema.ts';
import { forbidden } from '../errors.ts';
import type { MessageRow } from './wire.ts';

/** Posting: channel membership is enough for now (requireChannelMember has already checked it). */
export async function requirePostPermission(_db: Db, _access: ChannelAccess): Promise<void> {}

/** Editing: only the author. */
export function requireEditPermission(access: ChannelAccess, message: MessageRow): void {
  if (message.memberId !== access.member.id) throw forbidden('You can only edit your own messages');
}

async function holdsOwnershipRole(db: Db, channelMemberId: string): Promise<boolean> {
  const rows = await db
    .select({ id: channelRoles.id })
    .from(channelMemberRoles)
    .innerJoin(channelRoles, eq(channelRoles.id, channelMemberRoles.roleId))
    .where(
      and(eq(channelMemberRoles.channelMemberId, channelMemberId), eq(channelRoles.isOwnershipRole, true)),
    )
    .limit(1);
  return rows.length > 0;
}

/** Deleting: the author, a holder of the channel's ownership role, or a workspace owner or admin. */
export async function requireDeletePermission(
  db: Db,
  access: ChannelAccess,
  message: MessageRow,
): Promise<void> {
  if (message.memberId === access.member.id) return;
  if (isWorkspaceAdmin(access.member)) return;
  if (await holdsOwnershipRole(db, access.channelMember.id)) return;
  throw forbidden('You cannot delete this message');
}
