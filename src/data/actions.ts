// Intents of the screens (decision 0001): each writes to the store and/or asks the worker.
// REST failures reject with ApiError carrying the server's message.
import type { ChannelDoc, ChannelMemberDoc, SettingsDoc } from '../../schemas/collections.ts';
import { SETTINGS_DEFAULTS } from '../../schemas/collections.ts';
import type {
  Attachment,
  Channel,
  ChannelMember,
  InstitutionWithMember,
  InvitationWithInstitution,
  Member,
  Mention,
  MessagePage,
  SigninResponse,
  User,
} from '../../schemas/protocol.ts';
import { MESSAGE_PAGE_SIZE } from '../../schemas/protocol.ts';
import { isDraftEmpty, settledAttachments } from '../store/drafts.ts';
import * as outbox from '../store/outbox.ts';
import { applyServerMessage } from '../store/outbox.ts';
import { replaceJoinedChannels, upsertMembership } from './channel-store.ts';
import { clearLocalSession, requireClient } from './client.ts';

/** Lists may come bare or wrapped in {data}; accept both so the client does not depend on the envelope. */
function listOf<T>(body: T[] | { data: T[] }): T[] {
  return Array.isArray(body) ? body : body.data;
}

const base = (institutionId: string) => `/api/institutions/${encodeURIComponent(institutionId)}`;

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
  await selectInstitution(doc.id);
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
  const { http, db } = await requireClient();
  const [institutions, invitations] = await Promise.all([
    http.get<InstitutionWithMember[] | { data: InstitutionWithMember[] }>('/api/institutions').then(listOf),
    http
      .get<InvitationWithInstitution[] | { data: InvitationWithInstitution[] }>('/api/institutions/invited')
      .then(listOf),
  ]);
  await replaceAll(db.institutions, institutions);
  await replaceAll(db.invitations, invitations);
}

export async function inviteMembers(institutionId: string, emails: string[]): Promise<void> {
  const { http } = await requireClient();
  await http.post(`${base(institutionId)}/invited-members`, { emails });
}

export async function acceptInvitation(institutionId: string): Promise<void> {
  const { http } = await requireClient();
  await http.post(`${base(institutionId)}/members`);
  await refreshInstitutions();
  await selectInstitution(institutionId);
}

/** Declines an invitation: it disappears here and for the workspace's admins. */
export async function declineInvitation(invitationId: string): Promise<void> {
  const { http } = await requireClient();
  await http.del(`/api/institutions/invited/${encodeURIComponent(invitationId)}`);
  await refreshInstitutions();
}

/** Workspace members into the store. */
export async function refreshMembers(institutionId: string): Promise<void> {
  const { http, db } = await requireClient();
  const members = listOf(await http.get<Member[] | { data: Member[] }>(`${base(institutionId)}/members`));
  await replaceAll(db.members, members, { institutionId });
}

// ───────────────────────────── channels ─────────────────────────────
export async function refreshJoinedChannels(institutionId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  const res = await http.get<{ channels: Channel[]; channelMembers: ChannelMember[] }>(
    `${base(institutionId)}/channels/joined`,
  );
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

export async function retryMessage(genId: string): Promise<void> {
  const { db, worker } = await requireClient();
  await outbox.retryMessage(db, genId);
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

// ───────────────────────────── helpers ─────────────────────────────
interface Replaceable<T extends { id: string }> {
  find(q?: { selector?: Record<string, unknown> }): {
    exec(): Promise<{ id: string; remove(): Promise<unknown> }[]>;
  };
  bulkUpsert(docs: T[]): Promise<unknown>;
}

/** Mirrors a server list: upserts what came, removes what is gone (within `scope`). */
async function replaceAll<T extends { id: string }>(
  collection: Replaceable<T>,
  docs: T[],
  scope: Record<string, unknown> = {},
): Promise<void> {
  const keep = new Set(docs.map((d) => d.id));
  const existing = await collection.find({ selector: scope }).exec();
  await Promise.all(existing.filter((d) => !keep.has(d.id)).map((d) => d.remove()));
  if (docs.length) await collection.bulkUpsert(docs);
}

export type { ChannelMemberDoc };
