// Workspace lists from the server into the store, shared by the tab's actions and the worker (which
// runs them when a socket event says something changed): members, workspaces, sections, groups,
// channel roles, channel members and join requests; plus the live updates (online state, memberAction).
import type { RxCollection } from 'rxdb';
import type {
  ChannelDoc,
  ChannelMemberDoc,
  InstitutionDoc,
  InvitationDoc,
  MemberDoc,
  OutboxDoc,
  RecordDoc,
} from '../../schemas/collections.ts';
import type {
  ChannelMemberEntry,
  ChannelRequest,
  ChannelRole,
  Group,
  MemberActionEvent,
} from '../../schemas/protocol/index.ts';
import { changedOnly, sameContent } from './changed-rows.ts';
import type { Http } from './http.ts';
import { inListOrder, noteListWrites, writtenSince } from './list-writes.ts';
import { withNewerOwnSettings } from './own-membership.ts';
import { getRecord, putRecord, replaceRecords } from './records.ts';
import { storeSections } from './section-outbox.ts';

export interface WorkspaceCollections {
  channels: RxCollection<ChannelDoc>;
  channelMembers: RxCollection<ChannelMemberDoc>;
  members: RxCollection<MemberDoc>;
  institutions: RxCollection<InstitutionDoc>;
  invitations: RxCollection<InvitationDoc>;
  records: RxCollection<RecordDoc>;
  outbox: RxCollection<OutboxDoc>;
}

export interface WorkspaceStore {
  http: Http;
  db: WorkspaceCollections;
}

export const institutionPath = (institutionId: string) =>
  `/api/institutions/${encodeURIComponent(institutionId)}`;
export const channelPath = (institutionId: string, channelId: string) =>
  `${institutionPath(institutionId)}/channels/${encodeURIComponent(channelId)}`;

interface StoredVersion {
  id: string;
  _meta: { lwt: number };
}

interface Replaceable<T extends { id: string }> {
  find(q?: { selector?: Record<string, unknown> }): {
    exec(): Promise<{ id: string; toJSON(withMeta: true): StoredVersion }[]>;
  };
  bulkUpsert(docs: T[]): Promise<{ success: { toJSON(withMeta: true): StoredVersion }[] }>;
  bulkRemove(ids: string[]): Promise<unknown>;
  storageInstance: { findDocumentsById(ids: string[], withDeleted: boolean): Promise<StoredVersion[]> };
}

/**
 * Mirrors a server list fetched at `fetchedAt` (taken before the request went out): upserts what came,
 * removes what is gone (within `scope`). Anything the store wrote after `fetchedAt`, here or in the
 * worker (a newer list, a live event, a removal), is newer than this list and is left as it is: a
 * slow answer must not take back a workspace just joined or a member who just arrived. Rows an older
 * list of this context wrote meanwhile are not newer (list-writes.ts).
 */
export function replaceAll<T extends { id: string }>(
  collection: Replaceable<T>,
  docs: T[],
  fetchedAt: number,
  scope: Record<string, unknown> = {},
): Promise<void> {
  return inListOrder(collection, () => replaceNow(collection, docs, fetchedAt, scope));
}

async function replaceNow<T extends { id: string }>(
  collection: Replaceable<T>,
  docs: T[],
  fetchedAt: number,
  scope: Record<string, unknown>,
): Promise<void> {
  const keep = new Set(docs.map((d) => d.id));
  const existing = await collection.find({ selector: scope }).exec();
  const gone = existing
    .filter((d) => !keep.has(d.id) && !writtenSince(collection, d.toJSON(true), fetchedAt))
    .map((d) => d.id);
  // bulkRemove reports a document another context removed first instead of throwing a conflict,
  // which would fail the action that asked for the refresh.
  if (gone.length) {
    await collection.bulkRemove(gone);
    noteListWrites(collection, await collection.storageInstance.findDocumentsById(gone, true), fetchedAt);
  }
  if (docs.length === 0) return;
  // Removed ones too (withDeleted): a removal after fetchedAt is newer than this list.
  const stored = await collection.storageInstance.findDocumentsById([...keep], true);
  const newer = new Set(stored.filter((d) => writtenSince(collection, d, fetchedAt)).map((d) => d.id));
  const byId = new Map(stored.map((d) => [d.id, d]));
  // What the store already holds as listed is not written again (changed-rows.ts).
  const fresh = docs.filter((d) => !newer.has(d.id) && !sameContent(byId.get(d.id), d));
  if (fresh.length === 0) return;
  const { success } = await collection.bulkUpsert(fresh);
  noteListWrites(
    collection,
    success.map((d) => d.toJSON(true)),
    fetchedAt,
  );
}

/** Stores the server's workspaces and invitations; returns the ids of the workspaces it listed. */
export async function fetchInstitutions({ http, db }: WorkspaceStore): Promise<string[]> {
  const fetchedAt = Date.now();
  const [institutions, invitations] = await Promise.all([
    http.call('workspaces').then((r) => r.data),
    http.call('myInvitations').then((r) => r.data),
  ]);
  await replaceAll(db.institutions, institutions, fetchedAt);
  await replaceAll(db.invitations, invitations, fetchedAt);
  return institutions.map((i) => i.id);
}

export async function fetchMembers({ http, db }: WorkspaceStore, institutionId: string): Promise<void> {
  const fetchedAt = Date.now();
  const fetched = (await http.call('members', { params: { id: institutionId } })).data;
  const selfId = (await db.institutions.findOne(institutionId).exec())?.member.id;
  await replaceAll(db.members, await withOwnOnlineState(db, selfId, fetched), fetchedAt, {
    institutionId,
  });
}

/**
 * One's own online state follows this device's socket (the worker sets it); a list fetched just before
 * the socket connected must not turn it back off (the person's own dot flickered at every reload).
 */
async function withOwnOnlineState(
  db: Pick<WorkspaceCollections, 'members'>,
  selfId: string | undefined,
  listed: readonly MemberDoc[],
): Promise<MemberDoc[]> {
  const self = selfId ? await db.members.findOne(selfId).exec() : null;
  return listed.map((m) =>
    self && m.id === self.id ? { ...m, user: { ...m.user, isOnline: self.user.isOnline } } : m,
  );
}

/** The caller's sections; changes still queued offline are laid over them. */
export async function fetchSections({ http, db }: WorkspaceStore, institutionId: string): Promise<void> {
  const fetchedAt = Date.now();
  const sections = (await http.call('sections', { params: { id: institutionId } })).data;
  await storeSections(db, institutionId, sections, fetchedAt);
}

export async function fetchGroups({ http, db }: WorkspaceStore, institutionId: string): Promise<Group[]> {
  const groups = (await http.call('groups', { params: { id: institutionId } })).data;
  await replaceRecords(db, 'group', { institutionId }, groups, { scope: institutionId, institutionId });
  return groups;
}

/** A channel's roles (the default one among them); the channel row's embedded default role follows. */
export async function fetchChannelRoles(
  { http, db }: WorkspaceStore,
  institutionId: string,
  channelId: string,
): Promise<ChannelRole[]> {
  const roles = (await http.call('channelRoles', { params: { id: institutionId, channelId } })).data;
  await replaceRecords(db, 'channelRole', { scope: channelId }, roles, { scope: channelId, institutionId });
  await syncDefaultRole(db, roles);
  return roles;
}

/** Keeps a channel row's embedded default role in step with a fresher copy of it. */
export async function syncDefaultRole(
  db: Pick<WorkspaceCollections, 'channels'>,
  roles: readonly ChannelRole[],
): Promise<void> {
  for (const role of roles.filter((r) => r.isDefault)) {
    const channel = await db.channels.findOne(role.channelId).exec();
    if (channel && JSON.stringify(channel.defaultRole) !== JSON.stringify(role))
      await channel.incrementalPatch({ defaultRole: role });
  }
}

/** Everyone in a channel (and their member records); the caller's own row keeps its local unread count. */
export async function fetchChannelMembers(
  { http, db }: WorkspaceStore,
  institutionId: string,
  channelId: string,
): Promise<ChannelMemberEntry[]> {
  // The header's count refreshes on mount (the tab) and on every change (the worker): the older answer
  // must not land over the newer one.
  const fetchedAt = Date.now();
  const entries = (await http.call('channelMembers', { params: { id: institutionId, channelId } })).data;
  const memberships = entries.map((e) => e.channelMember);
  await replaceRecords(
    db,
    'channelMember',
    { scope: channelId },
    memberships,
    { scope: channelId, institutionId },
    undefined,
    fetchedAt,
  );
  const self = (await db.institutions.findOne(institutionId).exec())?.member.id;
  const changed = await changedOnly(
    db.members,
    await withOwnOnlineState(
      db,
      self,
      entries.map((e) => e.member),
    ),
  );
  if (changed.length) await db.members.bulkUpsert(changed);
  const mine = memberships.find((m) => m.memberId === self);
  if (mine) await storeOwnMembership(db, mine, fetchedAt);
  return entries;
}

/**
 * The count kept here and the seq it was counted through belong together (decision 0047): keeping the
 * count but taking the server's seq paired them wrongly, and for a channel open on screen (which has no
 * seq) rewrote the row at every refresh, each time re-rendering the sidebar and the channel.
 */
function withLocalUnread(
  listed: ChannelMemberDoc,
  local: Pick<ChannelMemberDoc, 'unreadCount' | 'unreadThrough'>,
): ChannelMemberDoc {
  const { unreadThrough: _, ...rest } = listed;
  return local.unreadThrough === undefined
    ? { ...rest, unreadCount: local.unreadCount }
    : { ...rest, unreadCount: local.unreadCount, unreadThrough: local.unreadThrough };
}

/**
 * The caller's own membership as the server returned it, keeping the unread count kept here. From a list
 * asked for at `fetchedAt`, a row written since keeps its own settings (./own-membership.ts).
 */
export async function storeOwnMembership(
  db: Pick<WorkspaceCollections, 'channelMembers'>,
  membership: ChannelMemberDoc,
  fetchedAt = Number.POSITIVE_INFINITY,
): Promise<void> {
  await inListOrder(db.channelMembers, async () => {
    const [fresh] = await withNewerOwnSettings(db.channelMembers, [membership], fetchedAt);
    const stored = await db.channelMembers.findOne(membership.id).exec();
    if (!stored || !fresh) return;
    if (sameContent(stored.toJSON(true), withLocalUnread(fresh, stored))) return;
    await stored.incrementalModify((d) => withLocalUnread(fresh, d));
  });
}

/** Join requests of a channel (for its managers); the caller's own request there is kept regardless. */
export async function fetchChannelRequests(
  { http, db }: WorkspaceStore,
  institutionId: string,
  channelId: string,
): Promise<ChannelRequest[]> {
  const requests = (await http.call('channelRequests', { params: { id: institutionId, channelId } })).data;
  const self = (await db.institutions.findOne(institutionId).exec())?.member.id;
  await replaceRecords(
    db,
    'channelRequest',
    { scope: channelId },
    requests,
    { scope: channelId, institutionId },
    (r) => r.memberId === self,
  );
  return requests;
}

/** The caller's own join requests in a workspace (GET channels/requests/mine). */
export async function fetchMyRequests(
  { http, db }: WorkspaceStore,
  institutionId: string,
): Promise<ChannelRequest[]> {
  const requests = (await http.call('myChannelRequests', { params: { id: institutionId } })).data;
  await storeRequests(db, requests);
  return requests;
}

export async function storeRequests(
  db: Pick<WorkspaceCollections, 'records'>,
  requests: readonly ChannelRequest[],
) {
  for (const r of requests)
    await putRecord(db, 'channelRequest', r, { scope: r.channelId, institutionId: r.institutionId });
}

/** userOnlineStatusUpdate(s): every member row of that user (one per workspace) follows. */
export async function setUserOnline(
  db: Pick<WorkspaceCollections, 'members'>,
  userId: string,
  isOnline: boolean,
): Promise<void> {
  const rows = await db.members.find({ selector: { 'user.id': userId } }).exec();
  for (const row of rows)
    if (row.user.isOnline !== isOnline)
      await row.incrementalModify((d) => ({ ...d, user: { ...d.user, isOnline } }));
}

/** What a memberAction event asks of the store. */
export interface MemberActionPlan {
  institutionId: string;
  /** The caller is the requester: their request's status changes; on approval the joined list is reloaded. */
  mine: boolean;
  refreshJoined: boolean;
  /** The caller manages the channel: reload its requests (and members after an approval). */
  refreshRequests: boolean;
  refreshMembers: boolean;
}

/**
 * Which workspace a memberAction event is about (from the stored channel, request, or the caller's
 * member ids) and what to reload. Null when the store knows nothing of it.
 */
export async function planMemberAction(
  db: Pick<WorkspaceCollections, 'channels' | 'institutions' | 'records'>,
  event: MemberActionEvent,
): Promise<MemberActionPlan | null> {
  const institutions = (await db.institutions.find().exec()).map((d) => d.toJSON() as InstitutionDoc);
  const ownMemberIds = new Set(institutions.map((i) => i.member.id));
  const mine = ownMemberIds.has(event.memberId);
  const channel = await db.channels.findOne(event.channelId).exec();
  const request = await getRecord(db, 'channelRequest', event.requestId);
  const institutionId =
    channel?.institutionId ??
    request?.institutionId ??
    (mine ? institutions.find((i) => i.member.id === event.memberId)?.id : undefined);
  if (!institutionId) return null;
  const approved = event.status === 'approved';
  return {
    institutionId,
    mine,
    refreshJoined: mine && approved,
    refreshRequests: !mine,
    refreshMembers: !mine && approved,
  };
}

/** The caller's own stored request takes the new status at once (the event carries it). */
export async function applyRequestStatus(
  db: Pick<WorkspaceCollections, 'records'>,
  event: MemberActionEvent,
  decidedAt: string = new Date().toISOString(),
): Promise<void> {
  const request = await getRecord(db, 'channelRequest', event.requestId);
  if (!request || request.status === event.status) return;
  await putRecord(
    db,
    'channelRequest',
    { ...request, status: event.status, decidedAt: event.status === 'pending' ? null : decidedAt },
    { scope: request.channelId, institutionId: request.institutionId },
  );
}
