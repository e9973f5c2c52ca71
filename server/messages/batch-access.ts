// Who may post, answered for a whole batch of posts at once: a handful of set-based reads per batch instead
// of six or seven per post. The reads run inside the batch's own transaction. What they found is remembered
// (./access-cache.ts) with the channel's access_version, and a batch whose posters are all remembered reads
// nothing: the batch checks that version when it takes its sequence numbers (./post-batch.ts), so a change
// of membership, role or block made on any node still applies to the very next post.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type ChannelPermissions, channelPermissions, type RoleFlags } from '../../schemas/permissions.ts';
import type { Mention } from '../../schemas/protocol/index.ts';
import type { ChannelAccess } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channelRoles, channels, members } from '../db/schema.ts';
import { forbidden, type HttpError, notFound } from '../errors.ts';
import { type AccessCache, accessKey, type RememberedAccess } from './access-cache.ts';

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
  /** Each granted channel's access_version, as the answers were read. */
  versions: ReadonlyMap<string, number>;
  /** True when every answer came from memory and no statement ran: the versions must still be checked. */
  remembered: boolean;
}

const distinct = (values: Iterable<string>) => [...new Set(values)];

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

/** The answers, however they were found. Refusals are worked out here, from the same rows either way. */
function batchAccess(
  memberships: ReadonlyMap<string, RememberedAccess>,
  missing: ReadonlyMap<string, HttpError>,
  blockersIn: ReadonlyMap<string, readonly string[]>,
  remembered: boolean,
): BatchAccess {
  const permissions = new Map<string, ChannelPermissions>();
  const permissionsOf = (m: RememberedAccess): ChannelPermissions => {
    const key = m.channelMember.id;
    let p = permissions.get(key);
    if (!p) {
      p = channelPermissions({
        channel: { type: m.channel.type, defaultRole: m.defaultRole },
        memberRoles: m.heldRoles,
      });
      permissions.set(key, p);
    }
    return p;
  };
  const versions = new Map<string, number>();
  for (const m of memberships.values()) versions.set(m.channel.id, m.channel.accessVersion);
  return {
    versions,
    remembered,
    access(r) {
      return memberships.get(accessKey(r)) ?? (missing.get(accessKey(r)) as HttpError);
    },
    refusal(r, access) {
      const m = memberships.get(accessKey(r));
      if (!m) return forbidden('You are not a member of this channel');
      const p = permissionsOf(m);
      if (!p.canPost) return forbidden('You cannot post in this channel');
      const blocked =
        access.channel.type === 'direct_message' &&
        (blockersIn.get(access.channel.id) ?? []).some((id) => id !== access.member.id);
      if (blocked) return forbidden('You cannot message this person');
      if ((r.mentions?.length ?? 0) > 0 && !p.canTag)
        return forbidden('You cannot mention people in this channel');
      return null;
    },
  };
}

/**
 * The answers from memory alone, or null when a poster is not remembered, the memory of one channel
 * disagrees with itself, or a post would be refused (a refusal is always read afresh).
 */
export function rememberedAccess(requests: readonly PostRequest[], cache: AccessCache): BatchAccess | null {
  const memberships = new Map<string, RememberedAccess>();
  const blockersIn = new Map<string, readonly string[]>();
  const versionOf = new Map<string, number>();
  for (const r of requests) {
    const m = cache.get(accessKey(r));
    if (!m) return null;
    const version = versionOf.get(m.channel.id);
    if (version !== undefined && version !== m.channel.accessVersion) return null;
    versionOf.set(m.channel.id, m.channel.accessVersion);
    if (m.channel.type === 'direct_message') {
      const blockers = cache.blockers(m.channel.id, m.channel.accessVersion);
      if (!blockers) return null;
      blockersIn.set(m.channel.id, blockers);
    }
    memberships.set(accessKey(r), m);
  }
  const access = batchAccess(memberships, new Map(), blockersIn, true);
  for (const r of requests) {
    const a = access.access(r);
    if (!('member' in a) || access.refusal(r, a)) return null;
  }
  return access;
}

/** `remembered`: answer from memory when every poster is remembered (false after a stale memory). */
export async function loadBatchAccess(
  tx: Db,
  requests: readonly PostRequest[],
  cache: AccessCache,
  remembered = true,
): Promise<BatchAccess> {
  if (remembered) {
    const fromMemory = rememberedAccess(requests, cache);
    if (fromMemory) return fromMemory;
  }
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
  const membershipOf = new Map<string, RememberedAccess>(
    found
      .filter((f) => f.member.institutionId === f.channel.institutionId)
      .map((f) => [accessKey({ ...f.member, channelId: f.channel.id }), f]),
  );
  const missing = new Map<string, HttpError>();
  for (const r of requests)
    if (!membershipOf.has(accessKey(r)) && !missing.has(accessKey(r)))
      missing.set(accessKey(r), await whyNoMembership(tx, r));

  const channelRows = [...new Map(found.map((f) => [f.channel.id, f.channel])).values()];
  const dmChannels = channelRows.filter((c) => c.type === 'direct_message');
  const blockers =
    dmChannels.length === 0
      ? []
      : await tx
          .select({ channelId: channelMembers.channelId, memberId: channelMembers.memberId })
          .from(channelMembers)
          .where(
            and(
              inArray(
                channelMembers.channelId,
                dmChannels.map((c) => c.id),
              ),
              eq(channelMembers.blocked, true),
            ),
          );
  const blockersIn = new Map<string, string[]>(dmChannels.map((c) => [c.id, []]));
  for (const b of blockers) blockersIn.get(b.channelId)?.push(b.memberId);

  const access = batchAccess(membershipOf, missing, blockersIn, false);
  // Only grants are remembered, so that lifting a refusal needs nothing forgotten.
  for (const [key, m] of membershipOf)
    if (!access.refusal({ ...m.member, channelId: m.channel.id }, m)) cache.remember(key, m);
  for (const c of dmChannels) cache.rememberBlockers(c.id, c.accessVersion, blockersIn.get(c.id) ?? []);
  return access;
}

/**
 * Reads and remembers a person's grant to post in a channel they have just opened (visitChannel), so that
 * their first post there does not wait on the read. Nothing is remembered when they may not post.
 */
export async function rememberPostAccess(db: Db, request: PostRequest, cache: AccessCache): Promise<void> {
  if (rememberedAccess([request], cache)) return;
  await loadBatchAccess(db, [request], cache, false);
}
