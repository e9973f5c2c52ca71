// The activity feed: mentions of me (directly, by a role or group I hold, @everyone/@here), replies to my
// messages and reactions to them. Rows are written in the transaction of the message or reaction, and only
// for people who are members of the channel, so the feed never shows a message someone cannot read.
import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { ActivitiesResponse, ActivityType, Mention } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import { activities, channelMemberRoles, channelMembers, groupMembers, messages } from '../db/schema.ts';
import { type MessageRow, toWireMessage } from '../messages/wire.ts';

interface NewActivity {
  type: ActivityType;
  recipients: Iterable<string>;
  message: Pick<MessageRow, 'id' | 'channelId' | 'institutionId'>;
  actorMemberId: string;
  emoji?: string | null;
}

async function channelMemberIds(tx: Db, channelId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ memberId: channelMembers.memberId })
    .from(channelMembers)
    .where(eq(channelMembers.channelId, channelId));
  return new Set(rows.map((r) => r.memberId));
}

async function insertActivities(tx: Db, a: NewActivity, inChannel: Set<string>): Promise<void> {
  const recipients = [...new Set(a.recipients)].filter((m) => m !== a.actorMemberId && inChannel.has(m));
  if (recipients.length === 0) return;
  await tx.insert(activities).values(
    recipients.map((recipientMemberId) => ({
      id: randomUUID(),
      institutionId: a.message.institutionId,
      recipientMemberId,
      type: a.type,
      messageId: a.message.id,
      channelId: a.message.channelId,
      actorMemberId: a.actorMemberId,
      emoji: a.emoji ?? null,
    })),
  );
}

/** Who these mentions reach, before the channel-membership filter. */
async function mentionedMemberIds(
  tx: Db,
  channelId: string,
  mentions: readonly Mention[],
): Promise<string[]> {
  const ids = (type: Mention['type']) => mentions.filter((m) => m.type === type).map((m) => m.id);
  if (mentions.some((m) => m.type === 'everyone' || m.type === 'here'))
    return [...(await channelMemberIds(tx, channelId))];
  const found = ids('member');
  const roleIds = ids('role');
  if (roleIds.length > 0) {
    const rows = await tx
      .select({ memberId: channelMembers.memberId })
      .from(channelMemberRoles)
      .innerJoin(channelMembers, eq(channelMembers.id, channelMemberRoles.channelMemberId))
      .where(and(eq(channelMembers.channelId, channelId), inArray(channelMemberRoles.roleId, roleIds)));
    found.push(...rows.map((r) => r.memberId));
  }
  const groupIds = ids('group');
  if (groupIds.length > 0) {
    const rows = await tx
      .select({ memberId: groupMembers.memberId })
      .from(groupMembers)
      .where(inArray(groupMembers.groupId, groupIds));
    found.push(...rows.map((r) => r.memberId));
  }
  return found;
}

/**
 * Mentions and the reply of a newly written message. On an edit pass only the mentions it gained, and no
 * reply (the reply target does not change).
 */
export async function recordMessageActivities(
  tx: Db,
  row: MessageRow,
  options: { mentions?: readonly Mention[]; reply?: boolean } = {},
): Promise<void> {
  const mentions = options.mentions ?? row.mentions;
  const reply = options.reply ?? true;
  if (mentions.length === 0 && !(reply && row.replyTo)) return;
  const inChannel = await channelMemberIds(tx, row.channelId);
  // One entry per person per message: a reply that mentions its target is a mention, and an edit that adds
  // a mention of someone already told (of the reply, or an earlier mention) tells them nothing new.
  const told = reply ? new Set<string>() : await alreadyTold(tx, row.id);
  const mentioned = new Set(mentions.length > 0 ? await mentionedMemberIds(tx, row.channelId, mentions) : []);
  if (mentioned.size > 0) {
    await insertActivities(
      tx,
      {
        type: 'mention',
        recipients: [...mentioned].filter((m) => !told.has(m)),
        message: row,
        actorMemberId: row.memberId,
      },
      inChannel,
    );
  }
  if (reply && row.replyTo) {
    const [target] = await tx
      .select({ memberId: messages.memberId })
      .from(messages)
      .where(eq(messages.id, row.replyTo))
      .limit(1);
    if (target && !mentioned.has(target.memberId))
      await insertActivities(
        tx,
        { type: 'reply', recipients: [target.memberId], message: row, actorMemberId: row.memberId },
        inChannel,
      );
  }
}

/** Who already has a mention or reply entry for this message. */
async function alreadyTold(tx: Db, messageId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ memberId: activities.recipientMemberId })
    .from(activities)
    .where(and(eq(activities.messageId, messageId), inArray(activities.type, ['mention', 'reply'])));
  return new Set(rows.map((r) => r.memberId));
}

/** Someone reacted to a message: its author hears of it (not of their own reactions). */
export async function recordReactionActivity(
  tx: Db,
  row: MessageRow,
  actorMemberId: string,
  emoji: string,
): Promise<void> {
  if (row.memberId === actorMemberId) return;
  const inChannel = await channelMemberIds(tx, row.channelId);
  await insertActivities(
    tx,
    { type: 'reaction', recipients: [row.memberId], message: row, actorMemberId, emoji },
    inChannel,
  );
}

/** A reaction taken back takes its feed entry with it. */
export async function removeReactionActivity(
  tx: Db,
  messageId: string,
  actorMemberId: string,
  emoji: string,
): Promise<void> {
  await tx
    .delete(activities)
    .where(
      and(
        eq(activities.messageId, messageId),
        eq(activities.actorMemberId, actorMemberId),
        eq(activities.type, 'reaction'),
        eq(activities.emoji, emoji),
      ),
    );
}

/** The recipient's entries in channels they are still in, on messages not deleted, newest first. */
function visibleTo(institutionId: string, memberId: string) {
  return and(
    eq(activities.institutionId, institutionId),
    eq(activities.recipientMemberId, memberId),
    isNull(messages.deletedAt),
  );
}

export async function listActivities(
  db: Db,
  institutionId: string,
  memberId: string,
  page: number,
  limit: number,
): Promise<ActivitiesResponse> {
  const base = visibleTo(institutionId, memberId);
  const membership = and(
    eq(channelMembers.channelId, activities.channelId),
    eq(channelMembers.memberId, activities.recipientMemberId),
  );
  const [rows, totals, unreadTotals] = await Promise.all([
    db
      .select({ activity: activities, message: messages })
      .from(activities)
      .innerJoin(messages, eq(messages.id, activities.messageId))
      .innerJoin(channelMembers, membership)
      .where(base)
      .orderBy(desc(activities.createdAt), desc(activities.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db
      .select({ total: count() })
      .from(activities)
      .innerJoin(messages, eq(messages.id, activities.messageId))
      .innerJoin(channelMembers, membership)
      .where(base),
    db
      .select({ total: count() })
      .from(activities)
      .innerJoin(messages, eq(messages.id, activities.messageId))
      .innerJoin(channelMembers, membership)
      .where(and(base, isNull(activities.readAt))),
  ]);
  const total = totals[0]?.total ?? 0;
  return {
    data: rows.map(({ activity, message }) => ({
      id: activity.id,
      type: activity.type,
      message: toWireMessage(message),
      actorMemberId: activity.actorMemberId,
      emoji: activity.emoji,
      createdAt: activity.createdAt.toISOString(),
      read: activity.readAt !== null,
    })),
    metadata: { page, limit, total, hasMore: page * limit < total, unread: unreadTotals[0]?.total ?? 0 },
  };
}

/** Marks the given entries (or all) of the caller read; answers how many stay unread. */
export async function markActivitiesRead(
  db: Db,
  institutionId: string,
  memberId: string,
  ids: string[] | 'all',
): Promise<number> {
  const mine = and(
    eq(activities.institutionId, institutionId),
    eq(activities.recipientMemberId, memberId),
    isNull(activities.readAt),
  );
  await db
    .update(activities)
    .set({ readAt: new Date() })
    .where(ids === 'all' ? mine : and(mine, inArray(activities.id, ids)));
  const [row] = await db
    .select({ total: count() })
    .from(activities)
    .innerJoin(messages, eq(messages.id, activities.messageId))
    .innerJoin(
      channelMembers,
      and(
        eq(channelMembers.channelId, activities.channelId),
        eq(channelMembers.memberId, activities.recipientMemberId),
      ),
    )
    .where(and(mine, isNull(messages.deletedAt)));
  return row?.total ?? 0;
}
