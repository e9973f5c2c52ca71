// Joined channels into the store: channels, this user's memberships, and a sync checkpoint row per
// joined channel (the worker joins and pulls exactly the channels that have one).
import type { RxCollection } from 'rxdb';
import type {
  ChannelDoc,
  ChannelMemberDoc,
  MessageDoc,
  RecordDoc,
  SyncStateDoc,
} from '../../schemas/collections.ts';
import type { Channel, ChannelMember, ChannelRole } from '../../schemas/protocol/index.ts';
import { sameContent } from './changed-rows.ts';
import type { Http } from './http.ts';
import { inListOrder } from './list-writes.ts';
import { withNewerOwnSettings } from './own-membership.ts';
import { putRecords, recordKey } from './records.ts';

export interface ChannelCollections {
  channels: RxCollection<ChannelDoc>;
  channelMembers: RxCollection<ChannelMemberDoc>;
  syncState: RxCollection<SyncStateDoc>;
  records: RxCollection<RecordDoc>;
  messages: RxCollection<MessageDoc>;
}

/** A joined channel: channel row, membership row, and a checkpoint row that starts at 0 if new. */
export async function upsertMembership(
  db: ChannelCollections,
  channel: Channel,
  membership: ChannelMember | null,
): Promise<void> {
  const stored = await db.channels.findOne(channel.id).exec();
  if (!sameContent(stored?.toJSON(true), channel)) await db.channels.upsert(channel);
  if (membership) await storeMembership(db, membership);
  if (await db.syncState.findOne(channel.id).exec()) return;
  try {
    await db.syncState.insert({ channelId: channel.id, institutionId: channel.institutionId, checkpoint: 0 });
  } catch (error) {
    // The worker and a tab may both record a new channel at once; the first row (and its checkpoint) wins.
    if ((error as { code?: string }).code !== 'CONFLICT') throw error;
  }
}

/**
 * Writes a membership with its live unread count, counted inside the write: the worker raises the count
 * of a message it has just stored by modifying the same row, so a count taken before that message landed
 * and written after the raise would take it back (the badge stayed at 0 that way). A write that meets
 * another context's change in between is counted again (RxDB retries it on the newer row); one in this
 * context waits its turn behind it.
 */
async function storeMembership(db: ChannelCollections, membership: ChannelMember): Promise<void> {
  const stored = await db.channelMembers.findOne(membership.id).exec();
  if (!stored) {
    try {
      await db.channelMembers.insert(await withLiveUnread(db, membership));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONFLICT') throw error;
    }
  }
  const row = stored ?? (await db.channelMembers.findOne(membership.id).exec());
  // Unchanged, it is not written again (changed-rows.ts); a raise landing meanwhile keeps its own write.
  if (row && sameContent(row.toJSON(true), await withLiveUnread(db, membership))) return;
  await row?.incrementalModify(() => withLiveUnread(db, membership));
}

/**
 * The server counted unread messages up to `unreadThrough`; messages from others above it that already
 * reached this store (live, while the list was on its way) are added, and the live applier counts only
 * those above it, so no message is counted twice or dropped (issue 15 item 1). A count of 0 (an open
 * channel's) stays 0.
 */
async function withLiveUnread(db: ChannelCollections, m: ChannelMember): Promise<ChannelMember> {
  if (m.unreadThrough === undefined) return m;
  const above = await db.messages
    .find({ selector: { channelId: m.channelId, createdSeq: { $gt: m.unreadThrough } } })
    .exec();
  const newer = above.filter((d) => d.memberId !== m.memberId && d.deletedAt === null).length;
  return newer ? { ...m, unreadCount: m.unreadCount + newer } : m;
}

/** An open channel's membership: nothing unread, and no seq for the live applier to count from. */
function openMembership(m: ChannelMember): ChannelMember {
  const { unreadThrough: _, ...rest } = m;
  return { ...rest, unreadCount: 0 };
}

/**
 * The server's joined list for one workspace replaces the local one (left channels lose their rows). Channels
 * open on screen (`openChannelIds`) keep no unread count: a count fetched just before their reset reached the
 * server would otherwise bring back messages the person is looking at.
 *
 * The tab and the worker both fetch this list, and an answer can land after a newer one. `fetchedAt` (when
 * the request left) says which local changes are newer than the list: a channel whose checkpoint row was
 * written since (joined, or caught up) is kept, one whose row was removed since (left) is not brought back,
 * and a membership written since keeps the person's own settings (muted, blocked, on profile).
 */
export async function replaceJoinedChannels(
  db: ChannelCollections,
  institutionId: string,
  joined: { channels: Channel[]; channelMembers: ChannelMember[]; channelRoles?: ChannelRole[] },
  {
    openChannelIds = new Set<string>(),
    fetchedAt = Number.POSITIVE_INFINITY,
  }: { openChannelIds?: ReadonlySet<string>; fetchedAt?: number } = {},
): Promise<void> {
  const channels = await inListOrder(db.channelMembers, async () => {
    const listed = await withNewerOwnSettings(db.channelMembers, joined.channelMembers, fetchedAt);
    const byChannel = new Map(
      listed.map((m) => [m.channelId, openChannelIds.has(m.channelId) ? openMembership(m) : m]),
    );
    const rows = await db.syncState.storageInstance.findDocumentsById(
      joined.channels.map((c) => c.id),
      true,
    );
    const leftSince = new Set(
      rows.filter((r) => r._deleted && r._meta.lwt >= fetchedAt).map((r) => r.channelId),
    );
    const kept = joined.channels.filter((c) => !leftSince.has(c.id));
    for (const channel of kept) await upsertMembership(db, channel, byChannel.get(channel.id) ?? null);
    return kept;
  });
  const ids = new Set(joined.channels.map((c) => c.id));
  const stale = await db.syncState.find({ selector: { institutionId } }).exec();
  for (const s of stale.filter((s) => !ids.has(s.channelId) && s.toJSON(true)._meta.lwt < fetchedAt)) {
    await s.remove();
    await db.channelMembers.find({ selector: { channelId: s.channelId } }).remove();
  }
  if (joined.channelRoles)
    await replaceChannelRoles(
      db.records,
      institutionId,
      new Set(channels.map((c) => c.id)),
      joined.channelRoles,
    );
}

/** Fetches the caller's joined channels of one workspace into the store (see replaceJoinedChannels). */
export async function fetchJoinedChannels(
  { http, db }: { http: Http; db: ChannelCollections },
  institutionId: string,
  openChannelIds: ReadonlySet<string> = new Set(),
): Promise<void> {
  const fetchedAt = Date.now();
  const joined = await http.call('joinedChannels', { params: { id: institutionId } });
  await replaceJoinedChannels(db, institutionId, joined, { openChannelIds, fetchedAt });
}

/** The roles of the joined channels replace the stored ones of those channels (so permissions work offline). */
async function replaceChannelRoles(
  records: RxCollection<RecordDoc>,
  institutionId: string,
  channelIds: ReadonlySet<string>,
  roles: readonly ChannelRole[],
): Promise<void> {
  const keep = new Set(roles.map((r) => recordKey('channelRole', r.id)));
  const stored = await records.find({ selector: { kind: 'channelRole', institutionId } }).exec();
  const stale = stored.filter((d) => channelIds.has(d.scope) && !keep.has(d.key)).map((d) => d.key);
  if (stale.length) await records.bulkRemove(stale);
  await putRecords(
    { records },
    'channelRole',
    roles.map((data) => ({ data, place: { scope: data.channelId, institutionId } })),
  );
}
