// Which of their channels a member shows on their profile: chosen by the member, and seen by a viewer only
// where the viewer could see the channel anyway.
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { ChannelType } from '../../schemas/protocol/index.ts';
import { requireMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channels } from '../db/schema.ts';
import { badRequest } from '../errors.ts';
import type { ChannelServiceContext } from './context.ts';

/** Replaces which of the caller's channels (not direct messages) show on their profile. */
export async function setProfileChannels(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelIds: string[],
): Promise<{ channels: string[] }> {
  const { db } = ctx;
  const member = await requireMember(db, institutionId, userId);
  const wanted = [...new Set(channelIds)];
  const mine = wanted.length
    ? await db
        .select({ id: channelMembers.id, channelId: channelMembers.channelId })
        .from(channelMembers)
        .innerJoin(channels, eq(channels.id, channelMembers.channelId))
        .where(
          and(
            eq(channelMembers.memberId, member.id),
            inArray(channelMembers.channelId, wanted),
            ne(channels.type, 'direct_message'),
          ),
        )
    : [];
  if (mine.length !== wanted.length)
    throw badRequest('Only channels you are a member of can be shown on your profile');
  await db.transaction(async (tx) => {
    await tx
      .update(channelMembers)
      .set({ showOnProfile: false })
      .where(and(eq(channelMembers.memberId, member.id), eq(channelMembers.showOnProfile, true)));
    if (mine.length > 0)
      await tx
        .update(channelMembers)
        .set({ showOnProfile: true })
        .where(
          inArray(
            channelMembers.id,
            mine.map((m) => m.id),
          ),
        );
  });
  ctx.broadcast.toUser(userId, 'refresh', { value: 'joinedChannels' });
  return { channels: wanted };
}

/**
 * The channels a member shows on their profile, as a given viewer may see them: public ones, and
 * private ones only when the viewer is in them too.
 */
export async function profileChannelsOf(
  db: Db,
  memberId: string,
  viewerMemberId: string,
): Promise<{ id: string; name: string; type: ChannelType }[]> {
  const rows = await db
    .select({ id: channels.id, name: channels.name, type: channels.type })
    .from(channelMembers)
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .where(
      and(
        eq(channelMembers.memberId, memberId),
        eq(channelMembers.showOnProfile, true),
        ne(channels.type, 'direct_message'),
      ),
    )
    .orderBy(channels.name);
  const privateIds = rows.filter((r) => r.type === 'private').map((r) => r.id);
  const viewerIn = privateIds.length
    ? await db
        .select({ channelId: channelMembers.channelId })
        .from(channelMembers)
        .where(
          and(eq(channelMembers.memberId, viewerMemberId), inArray(channelMembers.channelId, privateIds)),
        )
    : [];
  const visible = new Set(viewerIn.map((r) => r.channelId));
  return rows.filter((r) => r.type === 'public' || visible.has(r.id));
}
