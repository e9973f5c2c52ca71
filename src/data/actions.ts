// Intents of the screens (decision 0001): each writes to the store and/or asks the worker.
// REST failures reject with ApiError carrying the server's message.
import type { ChannelDoc, ChannelMemberDoc, SettingsDoc } from '../../schemas/collections.ts';
import { SETTINGS_DEFAULTS } from '../../schemas/collections.ts';
import type {
  Attachment,
  Channel,
  ChannelMember,
  ChannelMemberEntry,
  ChannelRequest,
  ChannelRole,
  CreateChannelRoleBody,
  Group,
  GroupEmailsResponse,
  InstitutionWithMember,
  JoinedChannels,
  Member,
  MemberProfile,
  Mention,
  MessagePage,
  Section,
  SigninResponse,
  UpdateChannelRoleBody,
  User,
  WorkspaceRole,
} from '../../schemas/protocol.ts';
import { MESSAGE_PAGE_SIZE } from '../../schemas/protocol.ts';
import { isDraftEmpty, settledAttachments } from '../store/drafts.ts';
import { newGenId } from '../store/gen-id.ts';
import { applyServerMessage } from '../store/messages.ts';
import * as outbox from '../store/outbox.ts';
import { getRecord, listRecords, putRecord, removeRecord } from '../store/records.ts';
import { queueSectionChange } from '../store/section-outbox.ts';
import * as sectionRules from '../store/sections.ts';
import { requeueUpload } from '../store/uploads.ts';
import { replaceJoinedChannels, upsertMembership } from './channel-store.ts';
import { clearLocalSession, type LanternClient, requireClient } from './client.ts';
import {
  channelPath,
  fetchChannelMembers,
  fetchChannelRequests,
  fetchChannelRoles,
  fetchGroups,
  fetchInstitutions,
  fetchMembers,
  fetchMyRequests,
  fetchSections,
  institutionPath,
  listOf,
  storeOwnMembership,
  storeRequests,
  syncDefaultRole,
} from './workspace-store.ts';

const base = institutionPath;

// Issue 4: message operations, lists, search and attachments live in their own files.
export * from './file-actions.ts';
export * from './message-actions.ts';
export * from './search.ts';
export * from './upload-actions.ts';

// ───────────────────────────── session ─────────────────────────────
export async function requestCode(email: string): Promise<void> {
  const { http } = await requireClient();
  await http.get(`/api/auth/signin_otp?email=${encodeURIComponent(email)}`);
}

export async function signIn(email: string, code: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  const res = await http.post<SigninResponse>('/api/auth/signin', { email, code });
  const previous = await db.session.findOne('current').exec();
  await db.session.upsert({
    id: 'current',
    token: res.accessToken,
    user: res.user,
    selectedInstitutionId: previous?.selectedInstitutionId ?? null,
  });
  await worker.sessionChanged(res.accessToken);
  await refreshInstitutions();
}

/** Ends the server session, disconnects the socket and clears the stores (spec §4 Session). */
export async function signOut(): Promise<void> {
  const { http, db, worker } = await requireClient();
  try {
    await http.put('/api/users/logout');
  } catch {
    // Signing out must work offline; the token is dropped locally either way.
  }
  await clearLocalSession(db);
  await worker.sessionChanged(null);
}

export async function updateProfile(patch: { name?: string; profileImage?: string | null }): Promise<void> {
  const { http, db } = await requireClient();
  const res = await http.put<User | { user: User }>('/api/users', patch);
  const user = 'user' in res && typeof res.user === 'object' ? res.user : (res as User);
  const session = await db.session.findOne('current').exec();
  if (session) await session.incrementalPatch({ user: { ...session.user, ...user } });
}

// ───────────────────────────── workspaces ─────────────────────────────
export async function createInstitution(name: string): Promise<InstitutionWithMember> {
  const { http, db } = await requireClient();
  const res = await http.post<{ institution: InstitutionWithMember; member: Member }>('/api/institutions', {
    name,
  });
  const doc: InstitutionWithMember = { ...res.institution, member: res.member };
  await db.institutions.upsert(doc);
  return doc;
}

export async function selectInstitution(id: string): Promise<void> {
  const { db } = await requireClient();
  const session = await db.session.findOne('current').exec();
  if (session && session.selectedInstitutionId !== id)
    await session.incrementalPatch({ selectedInstitutionId: id });
  await Promise.all([refreshJoinedChannels(id), refreshMembers(id)]);
}

/** Workspaces and pending invitations from the server into the store. */
export async function refreshInstitutions(): Promise<void> {
  await fetchInstitutions(await requireClient());
}

export async function inviteMembers(institutionId: string, emails: string[]): Promise<void> {
  const { http } = await requireClient();
  await http.post(`${base(institutionId)}/invited-members`, { emails });
}

export async function acceptInvitation(institutionId: string): Promise<void> {
  const { http } = await requireClient();
  await http.post(`${base(institutionId)}/members`);
  // The workspace in the store is all the next screen needs; it selects it and loads channels and
  // members itself, so joining on a slow connection does not wait for those lists too.
  await refreshInstitutions();
}

/** Declines an invitation: it disappears here and for the workspace's admins. */
export async function declineInvitation(invitationId: string): Promise<void> {
  const { http } = await requireClient();
  await http.del(`/api/institutions/invited/${encodeURIComponent(invitationId)}`);
  await refreshInstitutions();
}

/** Workspace members into the store. */
export async function refreshMembers(institutionId: string): Promise<void> {
  await fetchMembers(await requireClient(), institutionId);
}

// ───────────────────────────── channels ─────────────────────────────
export async function refreshJoinedChannels(institutionId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  const res = await http.get<JoinedChannels>(`${base(institutionId)}/channels/joined`);
  await replaceJoinedChannels(db, institutionId, res);
  await worker.channelsChanged();
}

/** Browsable channels into the store; returns their ids (used by useBrowsableChannels). */
export async function fetchBrowsableChannels(institutionId: string): Promise<string[]> {
  const { http, db } = await requireClient();
  const list = listOf(await http.get<Channel[] | { data: Channel[] }>(`${base(institutionId)}/channels`));
  await db.channels.bulkUpsert(list);
  return list.map((c) => c.id);
}

type ChannelResponse = { channel: Channel; channelMember: ChannelMember } | Channel;

async function storeChannelResponse(res: ChannelResponse): Promise<ChannelDoc> {
  const { db, worker } = await requireClient();
  if ('channel' in res) {
    await upsertMembership(db, res.channel, res.channelMember);
    await worker.channelsChanged();
    return res.channel;
  }
  await db.channels.upsert(res);
  return res;
}

export async function createChannel(
  institutionId: string,
  input: { name: string; type: 'public' | 'private' },
): Promise<ChannelDoc> {
  const { http } = await requireClient();
  const channel = await storeChannelResponse(
    await http.post<ChannelResponse>(`${base(institutionId)}/channels`, input),
  );
  await refreshJoinedChannels(institutionId);
  return channel;
}

export async function joinChannel(institutionId: string, channelId: string): Promise<void> {
  const { http } = await requireClient();
  await storeChannelResponse(
    await http.post<ChannelResponse>(`${base(institutionId)}/channels/${channelId}/members`),
  );
  await refreshJoinedChannels(institutionId);
}

export async function leaveChannel(institutionId: string, channelId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  await http.del(`${base(institutionId)}/channels/${channelId}/members`);
  await db.channelMembers.find({ selector: { channelId } }).remove();
  await db.syncState.findOne(channelId).remove();
  await worker.channelsChanged();
}

export async function startDirectMessage(institutionId: string, memberId: string): Promise<ChannelDoc> {
  const { http } = await requireClient();
  const channel = await storeChannelResponse(
    await http.post<ChannelResponse>(`${base(institutionId)}/channels/direct_messages`, {
      directMessageMemberId: memberId,
    }),
  );
  await refreshJoinedChannels(institutionId);
  return channel;
}

/** Shows a channel in this tab: resets its unread count here and on the server, and catches it up. */
export async function openChannel(institutionId: string, channelId: string): Promise<void> {
  const { db, worker, tabId } = await requireClient();
  const memberships = await db.channelMembers.find({ selector: { channelId } }).exec();
  await Promise.all(
    memberships.filter((m) => m.unreadCount > 0).map((m) => m.incrementalPatch({ unreadCount: 0 })),
  );
  await worker.setOpenChannel(tabId, { institutionId, channelId });
}

export async function closeChannel(): Promise<void> {
  const { worker, tabId } = await requireClient();
  await worker.setOpenChannel(tabId, null);
}

// ───────────────────────────── messages ─────────────────────────────
export async function sendMessage(input: {
  institutionId: string;
  channelId: string;
  content: string;
  replyTo?: string | null;
  mentions?: Mention[];
  attachments?: Attachment[];
}): Promise<string> {
  const { db, worker } = await requireClient();
  const institution = await db.institutions.findOne(input.institutionId).exec();
  const memberId = institution?.member.id ?? '';
  const genId = await outbox.enqueuePost(db, { ...input, memberId });
  // The worker also watches the outbox; the nudge only saves it a tick.
  void worker.drainOutbox();
  return genId;
}

/** Retry a failed message; files of it whose upload failed are retried too. */
export async function retryMessage(genId: string): Promise<void> {
  const { db, worker } = await requireClient();
  const message = await db.messages.findOne(genId).exec();
  for (const a of message?.attachments ?? []) if (a.isUploading) await requeueUpload(db, a.id);
  await outbox.retryMessage(db, genId);
  void worker.uploadFiles();
  void worker.drainOutbox();
}

export async function discardMessage(genId: string): Promise<void> {
  const { db } = await requireClient();
  await outbox.discardMessage(db, genId);
}

/** Older history, page by page (newest first on the server); the no-more-pages marker is not persisted. */
export async function loadOlderMessages(
  institutionId: string,
  channelId: string,
): Promise<{ hasMore: boolean }> {
  const { http, db } = await requireClient();
  // count() needs a fully indexed query; this one is not, so count the rows.
  const confirmed = (await db.messages.find({ selector: { channelId, status: 'confirmed' } }).exec()).length;
  const page = Math.floor(confirmed / MESSAGE_PAGE_SIZE) + 1;
  const res = await http.get<MessagePage>(
    `${base(institutionId)}/channels/${channelId}/messages?page=${page}&limit=${MESSAGE_PAGE_SIZE}`,
  );
  for (const m of res.data) await applyServerMessage(db, m);
  return { hasMore: res.metadata.hasMore };
}

// ───────────────────────────── drafts and settings ─────────────────────────────
/** Keeps the draft only while it is non-empty (spec §4, §5); uploading attachments are left out. */
export async function saveDraft(
  institutionId: string,
  channelId: string,
  draft: { content: string; attachments: Attachment[] },
): Promise<void> {
  const { db } = await requireClient();
  if (isDraftEmpty(draft)) {
    await db.drafts.findOne(channelId).remove();
    return;
  }
  await db.drafts.upsert({
    channelId,
    institutionId,
    content: draft.content,
    attachments: settledAttachments(draft.attachments),
    lastUpdateAt: Date.now(),
  });
}

export async function updateSettings(patch: Partial<Omit<SettingsDoc, 'id'>>): Promise<void> {
  const { db } = await requireClient();
  const current = await db.settings.findOne('settings').exec();
  await db.settings.upsert({
    ...SETTINGS_DEFAULTS,
    ...(current?.toJSON() as Partial<SettingsDoc>),
    ...patch,
    id: 'settings',
  });
}

// ───────────────────────────── channel settings (issue 3; owners) ─────────────────────────────
export async function renameChannel(
  institutionId: string,
  channelId: string,
  name: string,
): Promise<ChannelDoc> {
  const { http, db } = await requireClient();
  const channel = itemOf<Channel>(
    await http.put<unknown>(channelPath(institutionId, channelId), { name }),
    'channel',
  );
  await db.channels.upsert(channel);
  return channel;
}

/** Deletes the channel for everyone; the store forgets it and its messages. */
export async function deleteChannel(institutionId: string, channelId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  await http.del(channelPath(institutionId, channelId));
  await forgetChannel(db, channelId);
  await worker.channelsChanged();
}

async function forgetChannel(db: LanternClient['db'], channelId: string): Promise<void> {
  await db.channelMembers.find({ selector: { channelId } }).remove();
  await db.syncState.findOne(channelId).remove();
  await db.messages.find({ selector: { channelId } }).remove();
  await db.drafts.findOne(channelId).remove();
  await db.records.find({ selector: { scope: channelId } }).remove();
  await db.channels.findOne(channelId).remove();
}

// ───────────────────────────── channel roles (issue 3) ─────────────────────────────

/** A response that is the item itself or wraps it under `key`. */
function itemOf<T>(body: unknown, key: string): T {
  if (body && typeof body === 'object' && key in body) return (body as Record<string, T>)[key] as T;
  return body as T;
}

/** The channel's roles from the server into the store (the default role among them). */
export async function refreshChannelRoles(institutionId: string, channelId: string): Promise<ChannelRole[]> {
  return fetchChannelRoles(await requireClient(), institutionId, channelId);
}

async function storeRole(institutionId: string, role: ChannelRole): Promise<ChannelRole> {
  const { db } = await requireClient();
  await putRecord(db, 'channelRole', role, { scope: role.channelId, institutionId });
  await syncDefaultRole(db, [role]);
  return role;
}

export async function createChannelRole(
  institutionId: string,
  channelId: string,
  input: CreateChannelRoleBody,
): Promise<ChannelRole> {
  const { http } = await requireClient();
  const res = await http.post<unknown>(`${channelPath(institutionId, channelId)}/roles`, input);
  return storeRole(institutionId, itemOf<ChannelRole>(res, 'role'));
}

/** Renames a role or changes its flags; the channel's default role is edited the same way. */
export async function updateChannelRole(
  institutionId: string,
  channelId: string,
  roleId: string,
  patch: UpdateChannelRoleBody,
): Promise<ChannelRole> {
  const { http } = await requireClient();
  const res = await http.put<unknown>(
    `${channelPath(institutionId, channelId)}/roles/${encodeURIComponent(roleId)}`,
    patch,
  );
  return storeRole(institutionId, itemOf<ChannelRole>(res, 'role'));
}

export async function deleteChannelRole(
  institutionId: string,
  channelId: string,
  roleId: string,
): Promise<void> {
  const { http, db } = await requireClient();
  await http.del(`${channelPath(institutionId, channelId)}/roles/${encodeURIComponent(roleId)}`);
  await removeRecord(db, 'channelRole', roleId);
  // Holders lose the role on the server; mirror that in the memberships we hold.
  await refreshChannelMembership(institutionId, channelId);
}

/** Exactly these workspace members hold the role afterwards. */
export async function setRoleMembers(
  institutionId: string,
  channelId: string,
  roleId: string,
  memberIds: string[],
): Promise<void> {
  const { http } = await requireClient();
  await http.put(`${channelPath(institutionId, channelId)}/roles/${encodeURIComponent(roleId)}/members`, {
    members: memberIds,
  });
  await refreshChannelMembership(institutionId, channelId);
}

/** Hands the channel's ownership to another member of it. */
export async function transferChannelOwnership(
  institutionId: string,
  channelId: string,
  memberId: string,
): Promise<void> {
  const { http } = await requireClient();
  await http.put(`${channelPath(institutionId, channelId)}/transfer-ownership`, { member: memberId });
  await refreshChannelMembership(institutionId, channelId);
}

// ───────────────────────────── channel membership (issue 3) ─────────────────────────────
/** Everyone in a channel into the store (their member records too); `roleId` filters on the server. */
export async function refreshChannelMembers(
  institutionId: string,
  channelId: string,
): Promise<ChannelMemberEntry[]> {
  return fetchChannelMembers(await requireClient(), institutionId, channelId);
}

/** After a change of roles or members: the channel's members, its roles and my joined list. */
async function refreshChannelMembership(institutionId: string, channelId: string): Promise<void> {
  await Promise.all([
    refreshChannelMembers(institutionId, channelId),
    refreshChannelRoles(institutionId, channelId),
  ]);
  await refreshJoinedChannels(institutionId);
}

export async function addChannelMembers(
  institutionId: string,
  channelId: string,
  memberIds: string[],
): Promise<void> {
  const { http } = await requireClient();
  await http.post(`${channelPath(institutionId, channelId)}/members/add`, { members: memberIds });
  await refreshChannelMembers(institutionId, channelId);
}

export async function removeChannelMembers(
  institutionId: string,
  channelId: string,
  memberIds: string[],
): Promise<void> {
  const { http } = await requireClient();
  await http.del(`${channelPath(institutionId, channelId)}/members/remove`, { members: memberIds });
  await refreshChannelMembers(institutionId, channelId);
}

/** Stores the caller's membership when a response carries it (keeping the local unread count). */
async function storeMembershipFrom(res: unknown): Promise<void> {
  const { db } = await requireClient();
  const membership = itemOf<ChannelMember | undefined>(res, 'channelMember');
  if (membership && typeof membership === 'object' && 'channelId' in membership)
    await storeOwnMembership(db, membership);
}

/** The caller's own setting for a channel: muted or not. */
export async function setChannelMuted(
  institutionId: string,
  channelId: string,
  muted: boolean,
): Promise<void> {
  const { http } = await requireClient();
  await storeMembershipFrom(
    await http.put<unknown>(`${channelPath(institutionId, channelId)}/members`, { muted }),
  );
}

/** Direct messages: the other person can no longer post to the caller (and the caller's composer says so). */
export async function blockDirectMessage(institutionId: string, channelId: string): Promise<void> {
  await setBlocked(institutionId, channelId, true);
}

export async function unblockDirectMessage(institutionId: string, channelId: string): Promise<void> {
  await setBlocked(institutionId, channelId, false);
}

async function setBlocked(institutionId: string, channelId: string, blocked: boolean): Promise<void> {
  const { http, db } = await requireClient();
  const res = await http.put<unknown>(
    `${channelPath(institutionId, channelId)}/${blocked ? 'block' : 'unblock'}`,
  );
  await storeMembershipFrom(res);
  // Whatever the response carried, the caller's row now says what the server holds.
  const rows = await db.channelMembers.find({ selector: { channelId } }).exec();
  for (const row of rows) if (row.blocked !== blocked) await row.incrementalPatch({ blocked });
}

/** Which channels show on the caller's profile (replaces the previous choice). */
export async function setProfileChannels(institutionId: string, channelIds: string[]): Promise<void> {
  const { http, db } = await requireClient();
  await http.put(`${base(institutionId)}/channels/profile-channels`, { channels: channelIds });
  const chosen = new Set(channelIds);
  const rows = await db.channelMembers.find().exec();
  for (const row of rows) {
    const channel = await db.channels.findOne(row.channelId).exec();
    if (channel?.institutionId !== institutionId) continue;
    if ((row.showOnProfile ?? false) !== chosen.has(row.channelId))
      await row.incrementalPatch({ showOnProfile: chosen.has(row.channelId) });
  }
}

// ───────────────────────────── channel requests (issue 3) ─────────────────────────────
/** Asks to join a private channel; the channel's owners see the request live. */
export async function requestToJoin(
  institutionId: string,
  channelId: string,
  reason: string,
): Promise<ChannelRequest> {
  const { http } = await requireClient();
  const request = itemOf<ChannelRequest>(
    await http.post<unknown>(`${channelPath(institutionId, channelId)}/requests`, { reason }),
    'request',
  );
  await storeRequests((await requireClient()).db, [request]);
  return request;
}

/** A channel's requests (for its managers) from the server into the store. */
export async function refreshChannelRequests(
  institutionId: string,
  channelId: string,
): Promise<ChannelRequest[]> {
  return fetchChannelRequests(await requireClient(), institutionId, channelId);
}

/** The caller's own join requests in a workspace into the store. */
export async function refreshMyRequests(institutionId: string): Promise<ChannelRequest[]> {
  return fetchMyRequests(await requireClient(), institutionId);
}

/** Approves (adds the member) or rejects a join request. */
export async function answerChannelRequest(
  institutionId: string,
  channelId: string,
  requestId: string,
  status: 'approved' | 'rejected',
): Promise<ChannelRequest> {
  const { http } = await requireClient();
  const request = itemOf<ChannelRequest>(
    await http.put<unknown>(
      `${channelPath(institutionId, channelId)}/requests/${encodeURIComponent(requestId)}`,
      { status },
    ),
    'request',
  );
  await storeRequests((await requireClient()).db, [request]);
  if (status === 'approved') await refreshChannelMembers(institutionId, channelId).catch(() => undefined);
  return request;
}

// ───────────────────────────── sections (issue 3; work offline) ─────────────────────────────
/** The caller's sections from the server; changes still queued offline are laid over them. */
export async function refreshSections(institutionId: string): Promise<Section[]> {
  const client = await requireClient();
  await fetchSections(client, institutionId);
  return listRecords(client.db, 'section', { institutionId });
}

async function currentLayout(institutionId: string) {
  const { db } = await requireClient();
  const sections = await listRecords(db, 'section', { institutionId });
  const memberships = new Set((await db.channelMembers.find().exec()).map((m) => m.channelId));
  const channels = (await db.channels.find({ selector: { institutionId } }).exec())
    .map((c) => c.toJSON() as ChannelDoc)
    .filter((c) => memberships.has(c.id));
  return { sections, layout: sectionRules.arrangeSidebar(sections, channels) };
}

/** Creates a section (last), optionally with channels; works offline (the id is made here). */
export async function createSection(
  institutionId: string,
  name: string,
  channelIds: string[] = [],
): Promise<Section> {
  const { db, worker } = await requireClient();
  const { sections } = await currentLayout(institutionId);
  const sectionId = newGenId();
  const next = sectionRules.createSection(sections, {
    id: sectionId,
    name: name.trim(),
    channels: channelIds,
  });
  await queueSectionChange(db, institutionId, next, {
    kind: 'sectionCreate',
    sectionId,
    name: name.trim(),
    channels: channelIds,
  });
  void worker.drainOutbox();
  return next.find((s) => s.id === sectionId) as Section;
}

export async function renameSection(institutionId: string, sectionId: string, name: string): Promise<void> {
  const { db, worker } = await requireClient();
  const { sections } = await currentLayout(institutionId);
  const next = sectionRules.renameSection(sections, sectionId, name.trim());
  await queueSectionChange(db, institutionId, next, { kind: 'sectionRename', sectionId, name: name.trim() });
  void worker.drainOutbox();
}

/** Deletes a section; its channels return to the default section. */
export async function deleteSection(institutionId: string, sectionId: string): Promise<void> {
  const { db, worker } = await requireClient();
  const { sections } = await currentLayout(institutionId);
  const next = sectionRules.deleteSection(sections, sectionId);
  await queueSectionChange(db, institutionId, next, { kind: 'sectionDelete', sectionId });
  await removeRecord(db, 'sectionCollapsed', sectionId);
  void worker.drainOutbox();
}

export async function reorderSections(institutionId: string, sectionIds: string[]): Promise<void> {
  const { db, worker } = await requireClient();
  const { sections } = await currentLayout(institutionId);
  const next = sectionRules.reorderSections(sections, sectionIds);
  await queueSectionChange(db, institutionId, next, {
    kind: 'sectionsReorder',
    sectionIds: next.map((s) => s.id),
  });
  void worker.drainOutbox();
}

/** Moves a channel into a section at `index` of its displayed list (end when omitted); works offline. */
export async function moveChannelToSection(
  institutionId: string,
  channelId: string,
  sectionId: string,
  index?: number,
): Promise<void> {
  const { db, worker } = await requireClient();
  const { layout } = await currentLayout(institutionId);
  // Before the server's layout is known there is only the stand-in section: nothing to move.
  if (sectionId === sectionRules.PLACEHOLDER_SECTION_ID) return;
  const next = sectionRules.moveChannel(layout, channelId, sectionId, index);
  await queueSectionChange(db, institutionId, next, {
    kind: 'sectionsLayout',
    sections: next.map((s) => ({ id: s.id, channels: s.channels })),
  });
  void worker.drainOutbox();
}

/** Local only: collapse or expand a section (expanded by default). */
export async function setSectionCollapsed(
  institutionId: string,
  sectionId: string,
  collapsed: boolean,
): Promise<void> {
  const { db } = await requireClient();
  if (!collapsed) await removeRecord(db, 'sectionCollapsed', sectionId);
  else
    await putRecord(
      db,
      'sectionCollapsed',
      { sectionId, collapsed },
      { scope: institutionId, institutionId },
    );
}

export async function toggleSection(institutionId: string, sectionId: string): Promise<void> {
  const { db } = await requireClient();
  const row = await getRecord(db, 'sectionCollapsed', sectionId);
  await setSectionCollapsed(institutionId, sectionId, !row?.collapsed);
}

// ───────────────────────────── groups (issue 3; primary_owner, owner, admin) ─────────────────────────────
async function storeGroup(group: Group): Promise<Group> {
  const { db } = await requireClient();
  await putRecord(db, 'group', group, { scope: group.institutionId, institutionId: group.institutionId });
  return group;
}

export async function refreshGroups(institutionId: string): Promise<Group[]> {
  return fetchGroups(await requireClient(), institutionId);
}

export async function createGroup(institutionId: string, name: string): Promise<Group> {
  const { http } = await requireClient();
  return storeGroup(
    itemOf<Group>(await http.post<unknown>(`${base(institutionId)}/groups`, { name }), 'group'),
  );
}

export async function renameGroup(institutionId: string, groupId: string, name: string): Promise<Group> {
  const { http } = await requireClient();
  return storeGroup(
    itemOf<Group>(
      await http.put<unknown>(`${base(institutionId)}/groups/${encodeURIComponent(groupId)}`, { name }),
      'group',
    ),
  );
}

export async function deleteGroup(institutionId: string, groupId: string): Promise<void> {
  const { http, db } = await requireClient();
  await http.del(`${base(institutionId)}/groups/${encodeURIComponent(groupId)}`);
  await removeRecord(db, 'group', groupId);
}

/** Adds or removes members by e-mail; returns the e-mails that match no member of the workspace. */
export async function updateGroupEmails(
  institutionId: string,
  groupId: string,
  emails: string[],
  action: 'add' | 'remove',
): Promise<GroupEmailsResponse> {
  const { http } = await requireClient();
  const res = await http.put<GroupEmailsResponse>(
    `${base(institutionId)}/groups/${encodeURIComponent(groupId)}/emails`,
    {
      emails,
      action,
    },
  );
  await storeGroup(res.group);
  return res;
}

// ───────────────────────────── workspace members (issue 3) ─────────────────────────────
/** Changes one member's workspace role (admins; nobody demotes the primary owner). */
export async function updateMemberRole(
  institutionId: string,
  memberId: string,
  role: WorkspaceRole,
): Promise<Member> {
  const { http, db } = await requireClient();
  const member = itemOf<Member>(
    await http.put<unknown>(`${base(institutionId)}/members/${encodeURIComponent(memberId)}`, { role }),
    'member',
  );
  await db.members.upsert(member);
  await refreshOwnInstitution(institutionId, member);
  return member;
}

/** Changes the role of several members at once. */
export async function updateMembersRole(
  institutionId: string,
  memberIds: string[],
  role: WorkspaceRole,
): Promise<Member[]> {
  const { http, db } = await requireClient();
  const members = listOf(
    await http.put<Member[] | { data: Member[] }>(`${base(institutionId)}/members/bulk`, {
      memberIds,
      update: { role },
    }),
  );
  if (members.length) await db.members.bulkUpsert(members);
  for (const m of members) await refreshOwnInstitution(institutionId, m);
  return members;
}

/** When the changed member is the caller, the stored workspace (and so its permissions) follows. */
async function refreshOwnInstitution(institutionId: string, member: Member): Promise<void> {
  const { db } = await requireClient();
  const inst = await db.institutions.findOne(institutionId).exec();
  if (inst && inst.member.id === member.id) await inst.incrementalPatch({ member });
}

/** A member's profile (their channels shown on it) into the store. */
export async function refreshMemberProfile(institutionId: string, memberId: string): Promise<MemberProfile> {
  const { http, db } = await requireClient();
  const profile = await http.get<MemberProfile>(
    `${base(institutionId)}/members/${encodeURIComponent(memberId)}`,
  );
  await putRecord(db, 'memberProfile', profile, { scope: institutionId, institutionId });
  await db.members.upsert(profile.member);
  return profile;
}

/**
 * Leaves a workspace: the server drops the membership, the store forgets the workspace and the
 * selection moves to another one (or none). The screen clears its last channel and navigates to /.
 */
export async function leaveInstitution(institutionId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  await http.del(`${base(institutionId)}/members/me`);
  await forgetInstitution(db, institutionId);
  const session = await db.session.findOne('current').exec();
  if (session?.selectedInstitutionId === institutionId) {
    const other = await db.institutions.findOne().exec();
    await session.incrementalPatch({ selectedInstitutionId: other?.id ?? null });
  }
  await worker.channelsChanged();
}

async function forgetInstitution(db: LanternClient['db'], institutionId: string): Promise<void> {
  const channelIds = (await db.channels.find({ selector: { institutionId } }).exec()).map((c) => c.id);
  await db.channelMembers.find({ selector: { channelId: { $in: channelIds } } }).remove();
  await db.syncState.find({ selector: { institutionId } }).remove();
  await db.messages.find({ selector: { institutionId } }).remove();
  await db.drafts.find({ selector: { institutionId } }).remove();
  await db.records.find({ selector: { institutionId } }).remove();
  await db.members.find({ selector: { institutionId } }).remove();
  await db.channels.find({ selector: { institutionId } }).remove();
  await db.institutions.findOne(institutionId).remove();
}

// ───────────────────────────── visits (metrics; fire-and-forget) ─────────────────────────────
/** Recorded over the socket when connected; dropped when offline (never queued). */
export function visitMember(institutionId: string, memberId: string): void {
  void requireClient().then(({ worker }) => worker.visit({ kind: 'member', institutionId, memberId }));
}

export function visitChannel(institutionId: string, channelId: string): void {
  void requireClient().then(({ worker }) => worker.visit({ kind: 'channel', institutionId, channelId }));
}

export function visitGroup(institutionId: string, groupId: string): void {
  void requireClient().then(({ worker }) => worker.visit({ kind: 'group', institutionId, groupId }));
}

export type { ChannelMemberDoc };
