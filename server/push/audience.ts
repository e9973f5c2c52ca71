// Reads what the push decision needs about a committed message from the database: the channel, who its
// mentions reach (directly, by a channel role, by a workspace group), the replied-to author, and for every
// person in the channel their level, mute, Do-not-disturb and each session's latest activity.
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Mention } from '../../schemas/protocol/index.ts';
import type { Db } from '../db/client.ts';
import {
  channelMemberRoles,
  channelMembers,
  channelPushLevels,
  channels,
  groupMembers,
  members,
  messages,
  pushSettings,
  sessionActivity,
  users,
} from '../db/schema.ts';
import { HERE_WINDOW_MS, type PushMessageFacts, type RecipientFacts } from './decision.ts';

export interface PostedMessage {
  id: string;
  channelId: string;
  institutionId: string;
  memberId: string;
  content: string;
  replyTo: string | null;
  mentions: readonly Mention[];
}

export interface Audience {
  channelName: string;
  authorName: string;
  facts: PushMessageFacts;
  recipients: RecipientFacts[];
}

async function mentionedMemberIds(
  db: Db,
  channelId: string,
  mentions: readonly Mention[],
): Promise<Set<string>> {
  const ids = (type: Mention['type']) => mentions.filter((m) => m.type === type).map((m) => m.id);
  const found = new Set(ids('member'));
  const roleIds = ids('role');
  const groupIds = ids('group');
  const [byRole, byGroup] = await Promise.all([
    roleIds.length === 0
      ? []
      : db
          .select({ memberId: channelMembers.memberId })
          .from(channelMemberRoles)
          .innerJoin(channelMembers, eq(channelMembers.id, channelMemberRoles.channelMemberId))
          .where(and(eq(channelMembers.channelId, channelId), inArray(channelMemberRoles.roleId, roleIds))),
    groupIds.length === 0
      ? []
      : db
          .select({ memberId: groupMembers.memberId })
          .from(groupMembers)
          .where(inArray(groupMembers.groupId, groupIds)),
  ]);
  for (const r of [...byRole, ...byGroup]) found.add(r.memberId);
  return found;
}

/**
 * Null when the channel is gone (deleted between the commit and now). Only `userIds` (the people with a
 * subscription) are read as recipients.
 */
export async function readAudience(
  db: Db,
  message: PostedMessage,
  now: Date,
  userIds: readonly string[],
): Promise<Audience | null> {
  const [channel] = await db
    .select({ name: channels.name, type: channels.type })
    .from(channels)
    .where(eq(channels.id, message.channelId))
    .limit(1);
  if (!channel) return null;

  const [author, mentioned, replied, people] = await Promise.all([
    db
      .select({ userId: members.userId, name: users.name })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(eq(members.id, message.memberId))
      .limit(1),
    mentionedMemberIds(db, message.channelId, message.mentions),
    message.replyTo
      ? db
          .select({ memberId: messages.memberId })
          .from(messages)
          .where(and(eq(messages.id, message.replyTo), eq(messages.channelId, message.channelId)))
          .limit(1)
      : [],
    // Agents never read notifications; only people.
    db
      .select({
        memberId: channelMembers.memberId,
        userId: members.userId,
        muted: channelMembers.muted,
        level: channelPushLevels.level,
        dndUntil: pushSettings.dndUntil,
      })
      .from(channelMembers)
      .innerJoin(members, eq(members.id, channelMembers.memberId))
      .leftJoin(channelPushLevels, eq(channelPushLevels.channelMemberId, channelMembers.id))
      .leftJoin(pushSettings, eq(pushSettings.userId, members.userId))
      .where(
        and(
          eq(channelMembers.channelId, message.channelId),
          eq(members.kind, 'user'),
          inArray(members.userId, [...userIds]),
        ),
      ),
  ]);

  const peopleIds = people.map((p) => p.userId);
  const since = new Date(now.getTime() - HERE_WINDOW_MS);
  const activity =
    peopleIds.length === 0
      ? []
      : await db
          .select({
            userId: sessionActivity.userId,
            channelId: sessionActivity.channelId,
            at: sessionActivity.activeAt,
          })
          .from(sessionActivity)
          .where(and(inArray(sessionActivity.userId, peopleIds), gt(sessionActivity.activeAt, since)));
  const activityOf = new Map<string, { channelId: string | null; at: Date }[]>();
  for (const a of activity) {
    const list = activityOf.get(a.userId) ?? [];
    list.push({ channelId: a.channelId, at: a.at });
    activityOf.set(a.userId, list);
  }

  const everyone = message.mentions.some((m) => m.type === 'everyone');
  return {
    channelName: channel.name,
    authorName: author[0]?.name ?? 'Someone',
    facts: {
      channelId: message.channelId,
      channelType: channel.type,
      authorUserId: author[0]?.userId ?? null,
      authorMemberId: message.memberId,
      mentionedMemberIds: mentioned,
      everyone,
      here: message.mentions.some((m) => m.type === 'here'),
      repliedToMemberId: replied[0]?.memberId ?? null,
    },
    recipients: people.map((p) => ({
      memberId: p.memberId,
      userId: p.userId,
      muted: p.muted,
      level: p.level ?? null,
      dndUntil: p.dndUntil ?? null,
      activity: activityOf.get(p.userId) ?? [],
    })),
  };
}
