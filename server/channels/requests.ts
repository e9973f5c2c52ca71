// Asking to join a private channel: a workspace member gives a reason, the channel's managers list the
// requests and approve or reject them (approval adds the member with the default role). Both sides hear
// each step live through `memberAction` events; the requester also gets `refresh` when they are added.
// A private channel's name is for its members: a requester sees it only once they are one.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { ChannelRequest, ChannelRequestStatus } from '../../schemas/protocol/index.ts';
import { requireChannel, requireMember } from '../access.ts';
import type { Db } from '../db/client.ts';
import { channelMembers, channelRequests, channels, members } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { isUniqueViolation } from '../messages/unique-violation.ts';
import type { ChannelServiceContext } from './context.ts';
import { announceChannelMembers } from './member-events.ts';
import { channelOwnerUserIds, membershipOf, requireChannelManager } from './permissions.ts';
import { addChannelMember } from './setup.ts';
import type { ChannelRow } from './wire.ts';

type RequestRow = typeof channelRequests.$inferSelect;

/** `nameVisible`: the reader is a member of the channel (a manager answering, or an approved requester). */
const toChannelRequest = (
  row: RequestRow,
  channel: Pick<ChannelRow, 'name' | 'institutionId'>,
  nameVisible: boolean,
): ChannelRequest => ({
  id: row.id,
  institutionId: channel.institutionId,
  channelId: row.channelId,
  channelName: nameVisible ? channel.name : null,
  memberId: row.memberId,
  reason: row.reason,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  decidedBy: row.decidedBy,
});

/** The requester and the channel's owners hear about the request and its outcome. */
async function tellBothSides(ctx: ChannelServiceContext, request: ChannelRequest, requesterUserId: string) {
  const owners = await channelOwnerUserIds(ctx.db, request.channelId);
  const event = {
    channelId: request.channelId,
    memberId: request.memberId,
    action: 'request' as const,
    status: request.status,
    requestId: request.id,
  };
  for (const userId of new Set([requesterUserId, ...owners]))
    ctx.broadcast.toUser(userId, 'memberAction', event);
}

export async function createChannelRequest(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  reason: string,
): Promise<ChannelRequest> {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  if (channel.type === 'direct_message') throw notFound('Channel not found');
  if (await membershipOf(ctx.db, channelId, member.id))
    throw badRequest('You are already a member of this channel');
  if (channel.type === 'public') throw badRequest('This channel is public: join it directly');
  let row: RequestRow | undefined;
  try {
    [row] = await ctx.db
      .insert(channelRequests)
      .values({ id: randomUUID(), channelId, memberId: member.id, reason })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('You have already asked to join this channel');
    throw err;
  }
  if (!row) throw new Error('request insert returned nothing');
  // The requester is not a member yet (checked above): the answer must not name the channel.
  const request = toChannelRequest(row, channel, false);
  await tellBothSides(ctx, request, userId);
  return request;
}

/** A channel's requests, newest first; its managers (ownership role) only. */
export async function listChannelRequests(
  db: Db,
  userId: string,
  institutionId: string,
  channelId: string,
  status?: ChannelRequestStatus,
): Promise<ChannelRequest[]> {
  const member = await requireMember(db, institutionId, userId);
  const channel = await requireChannel(db, institutionId, channelId);
  await requireChannelManager(db, member, channel);
  const rows = await db
    .select()
    .from(channelRequests)
    .where(
      and(eq(channelRequests.channelId, channelId), status ? eq(channelRequests.status, status) : undefined),
    )
    .orderBy(desc(channelRequests.createdAt));
  return rows.map((r) => toChannelRequest(r, channel, true));
}

/** The caller's own requests in this workspace, newest first. */
export async function myChannelRequests(
  db: Db,
  userId: string,
  institutionId: string,
  status?: ChannelRequestStatus,
): Promise<ChannelRequest[]> {
  const member = await requireMember(db, institutionId, userId);
  const rows = await db
    .select({ request: channelRequests, channel: channels, membership: channelMembers.id })
    .from(channelRequests)
    .innerJoin(channels, eq(channels.id, channelRequests.channelId))
    .leftJoin(
      channelMembers,
      and(eq(channelMembers.channelId, channelRequests.channelId), eq(channelMembers.memberId, member.id)),
    )
    .where(
      and(eq(channelRequests.memberId, member.id), status ? eq(channelRequests.status, status) : undefined),
    )
    .orderBy(desc(channelRequests.createdAt));
  return rows.map((r) => toChannelRequest(r.request, r.channel, r.membership !== null));
}

/**
 * Approve or reject a pending request. Answering again with the same status is a no-op (a retried call
 * must not fail); changing an answered request is refused.
 */
export async function decideChannelRequest(
  ctx: ChannelServiceContext,
  userId: string,
  institutionId: string,
  channelId: string,
  requestId: string,
  status: ChannelRequestStatus,
): Promise<ChannelRequest> {
  const member = await requireMember(ctx.db, institutionId, userId);
  const channel = await requireChannel(ctx.db, institutionId, channelId);
  await requireChannelManager(ctx.db, member, channel);
  const [current] = await ctx.db
    .select({ request: channelRequests, requesterUserId: members.userId })
    .from(channelRequests)
    .innerJoin(members, eq(members.id, channelRequests.memberId))
    .where(and(eq(channelRequests.id, requestId), eq(channelRequests.channelId, channelId)))
    .limit(1);
  if (!current) throw notFound('Request not found');
  // The answer goes to a manager (checked above), who may see the name.
  if (current.request.status === status) return toChannelRequest(current.request, channel, true);
  if (current.request.status !== 'pending') throw badRequest('This request has already been answered');
  // A pending request stays pending: nothing to record.
  if (status === 'pending') return toChannelRequest(current.request, channel, true);

  const decided = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(channelRequests)
      .set({ status, decidedAt: new Date(), decidedBy: member.id })
      .where(and(eq(channelRequests.id, requestId), eq(channelRequests.status, 'pending')))
      .returning();
    if (!row) throw badRequest('This request has already been answered');
    if (status === 'approved') await addChannelMember(tx, channelId, row.memberId);
    return row;
  });
  const requester = current.requesterUserId;
  if (status === 'approved') {
    ctx.realtime.joinChannel(requester, channelId);
    ctx.broadcast.toUser(requester, 'refresh', { value: 'joinedChannels' });
    announceChannelMembers(ctx, channelId);
  }
  const request = toChannelRequest(decided, channel, true);
  await tellBothSides(ctx, request, requester);
  return request;
}
