// Who manages a channel once its last owner leaves the workspace or deletes their account. Only a
// channel's ownership roles manage it (spec §6, decision 0080), so a departure must not leave people in a
// channel nobody can rename, moderate or answer requests for. The channel's longest-standing remaining
// person (not an agent) takes the ownership role, in the same transaction as the departure. A channel left
// with nobody in it keeps no owner: there is nobody to hand it to.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import type { ChannelServiceContext } from './context.ts';
import { announceChannelMembers } from './member-events.ts';

export interface Heir {
  channelId: string;
  /** The user who now holds the channel's ownership role. */
  userId: string;
}

/**
 * Gives each channel whose every owner is among `leaving` (workspace member ids) an heir, before their
 * rows go. Call inside the departure's transaction; announce the result after it commits.
 */
export async function handOnOwnership(tx: Db, leaving: readonly string[]): Promise<Heir[]> {
  if (leaving.length === 0) return [];
  const ids = sql.join(
    leaving.map((id) => sql`${id}`),
    sql`, `,
  );
  const result = await tx.execute(sql`
    with orphaned as (
      select distinct r.id as role_id, r.channel_id
      from channel_roles r
      join channel_member_roles held on held.role_id = r.id
      join channel_members holder on holder.id = held.channel_member_id
      where r.is_ownership_role and holder.member_id in (${ids})
        and not exists (
          select 1 from channel_member_roles other
          join channel_members cm on cm.id = other.channel_member_id
          where other.role_id = r.id and cm.member_id not in (${ids})
        )
    ),
    heirs as (
      select distinct on (o.channel_id) o.channel_id, o.role_id, cm.id as channel_member_id, m.user_id
      from orphaned o
      join channel_members cm on cm.channel_id = o.channel_id and cm.member_id not in (${ids})
      join members m on m.id = cm.member_id and m.kind <> 'agent'
      order by o.channel_id, cm.joined_at, cm.id
    ),
    granted as (
      insert into channel_member_roles (channel_member_id, role_id)
      select channel_member_id, role_id from heirs
      on conflict do nothing
    )
    select channel_id, user_id from heirs
  `);
  return rowsOf<{ channel_id: string; user_id: string }>(result).map((r) => ({
    channelId: r.channel_id,
    userId: r.user_id,
  }));
}

/** After the departure commits: the heir's permissions changed, and every Members tab shows the new owner. */
export function announceHeirs(ctx: Pick<ChannelServiceContext, 'broadcast'>, heirs: readonly Heir[]): void {
  for (const heir of heirs) {
    ctx.broadcast.toUser(heir.userId, 'refresh', { value: 'joinedChannels' });
    announceChannelMembers(ctx, heir.channelId);
  }
}
