// Who may post, answered for a whole batch of posts at once: a handful of set-based reads per batch instead
// of six or seven per post. The reads run inside the batch's own transaction, so what they answer is what
// the database holds when the posts commit: nothing is kept between batches, so a change of membership,
// role or block is seen by the very next post, on every node, with nothing to invalidate.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type ChannelPermissions, channelPermissions, type RoleFlags } from '../../schemas/permissions.ts';
import type { Mention } from '../../schemas/protocol/index.ts';
import type { ChannelAccess, MemberRow } from '../access.ts';
import type { ChannelMemberRow, ChannelRow } from '../channels/wire.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channelRoles, channels, members } from '../db/schema.ts';
import { forbidden, type HttpError, notFound } from '../errors.ts';

export interface PostRequest {
  userId: string;
  institutionId: string;
  channelId: string;
  mentions?: readonly Mention[] | undefined;
}

const defaultRoles = alias(channelRoles, 'default_role');

export interface BatchAccess {
  /** The same answers requireChannelMember gives, one request at a time. */
  access(request: PostRequest): ChannelAccess | HttpError;
  /** The same refusals requirePostPermission gives; null when the post is allowed. */
  refusal(request: PostRequest, access: ChannelAccess): HttpError | null;
}

const distinct = (values: Iterable<string>) => [...new Set(values)];

/** A post's membership: its workspace member, channel and channel member, when all three exist. */
interface Membership {
  member: MemberRow;
  channel: ChannelRow;
  channelMember: ChannelMemberRow;
}

/**
 * Who the refusal goes to when a post's membership was not found: the same order of checks as
 * requireChannelMember (workspace member, then channel, then channel member). Only refused posts get here.
 */
async function whyNoMembership(tx: Db, r: PostRequest): Promise<HttpError> {
  const [member] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.institutionId, r.institutionId), eq(members.userId, r.userId)))
    .limit(1);
  if (!member) return forbidden('You are not a member of this workspace');
  const [channel] = await tx
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.id, r.channelId), eq(channels.institutionId, r.institutionId)))
    .limit(1);
  if (!channel) return notFound('Channel not found');
  return forbidden('You are not a member of this channel');
}

export async function loadBatchAccess(tx: Db, requests: readonly PostRequest[]): Promise<BatchAccess> {
  const userIds = distinct(requests.map((r) => r.userId));
  const channelIds = distinct(requests.map((r) => r.channelId));
  // One after another below: statements of one transaction share one connection (node-postgres refuses
  // to queue them itself from its next major version on).
  // Memberships with their member, channel, the channel's default role and the roles the member holds
  // there (as the flags the evaluation needs), in one statement.
  const found = await tx
    .select({
      member: members,
      channel: channels,
      channelMember: channelMembers,
      defaultRole: defaultRoles,
      heldRoles: sql<RoleFlags[]>`coalesce((
        SELECT json_agg(json_build_object(
          'canPinMessage', r.can_pin_message, 'canPost', r.can_post, 'canTag', r.can_tag,
          'canAddMembers', r.can_add_members, 'canDeleteMessage', r.can_delete_message,
          'isOwnershipRole', r.is_ownership_role))
        FROM channel_member_roles AS cmr JOIN channel_roles AS r ON r.id = cmr.role_id
        WHERE cmr.channel_member_id = ${channelMembers.id}), '[]'::json)`,
    })
    .from(channelMembers)
    .innerJoin(members, eq(members.id, channelMembers.memberId))
    .innerJoin(channels, eq(channels.id, channelMembers.channelId))
    .leftJoin(defaultRoles, eq(defaultRoles.id, channels.defaultRoleId))
    .where(and(inArray(channelMembers.channelId, channelIds), inArray(members.userId, userIds)));
  const membershipOf = new Map<string, Membership>(
    found
      .filter((f) => f.member.institutionId === f.channel.institutionId)
      .map((f) => [`${f.member.institutionId}/${f.channel.id}/${f.member.userId}`, f]),
  );
  const keyOf = (r: PostRequest) => `${r.institutionId}/${r.channelId}/${r.userId}`;
  const missing = new Map<string, HttpError>();
  for (const r of requests)
    if (!membershipOf.has(keyOf(r)) && !missing.has(keyOf(r)))
      missing.set(keyOf(r), await whyNoMembership(tx, r));

  const channelRows = [...new Map(found.map((f) => [f.channel.id, f.channel])).values()];
  const dmChannelIds = channelRows.filter((c) => c.type === 'direct_message').map((c) => c.id);
  const blockers =
    dmChannelIds.length === 0
      ? []
      : await tx
          .select({ channelId: channelMembers.channelId, memberId: channelMembers.memberId })
          .from(channelMembers)
          .where(and(inArray(channelMembers.channelId, dmChannelIds), eq(channelMembers.blocked, true)));
  const rolesOf = new Map(
    found.map((f) => [f.channelMember.id, { defaultRole: f.defaultRole, heldRoles: f.heldRoles }]),
  );
  const blockersIn = new Map<string, string[]>();
  for (const b of blockers) blockersIn.set(b.channelId, [...(blockersIn.get(b.channelId) ?? []), b.memberId]);

  const permissions = new Map<string, ChannelPermissions>();
  const permissionsOf = (access: ChannelAccess): ChannelPermissions => {
    const key = access.channelMember.id;
    let p = permissions.get(key);
    if (!p) {
      const roles = rolesOf.get(key);
      p = channelPermissions({
        channel: { type: access.channel.type, defaultRole: roles?.defaultRole ?? null },
        memberRoles: roles?.heldRoles ?? [],
      });
      permissions.set(key, p);
    }
    return p;
  };

  return {
    access(r) {
      return membershipOf.get(keyOf(r)) ?? (missing.get(keyOf(r)) as HttpError);
    },
    refusal(r, access) {
      const p = permissionsOf(access);
      if (!p.canPost) return forbidden('You cannot post in this channel');
      const blocked =
        access.channel.type === 'direct_message' &&
        (blockersIn.get(access.channel.id) ?? []).some((m) => m !== access.member.id);
      if (blocked) return forbidden('You cannot message this person');
      if ((r.mentions?.length ?? 0) > 0 && !p.canTag)
        return forbidden('You cannot mention people in this channel');
      return null;
    },
  };
}
