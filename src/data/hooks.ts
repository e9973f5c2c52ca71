// React hooks over the store's reactive queries: the only way screens read data (decision 0001).
// Every hook returns `undefined` until its first result.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Observable } from 'rxjs';
import { combineLatest, map } from 'rxjs';
import {
  type ChannelDoc,
  type ChannelMemberDoc,
  type DraftDoc,
  type MemberDoc,
  type MessageDoc,
  type Notice,
  type RecordDoc,
  type RecordKind,
  type RecordKinds,
  SETTINGS_DEFAULTS,
  type SettingsDoc,
  type UploadState,
} from '../../schemas/collections.ts';
import type { MentionSuggestion } from '../../schemas/mention-suggestions.ts';
import {
  isWorkspaceAdminRole,
  type WorkspacePermissions,
  workspacePermissions,
} from '../../schemas/permissions.ts';
import type {
  Activity,
  ChannelRequest,
  ChannelRole,
  FileEntity,
  Group,
  InstitutionWithMember,
  InvitationWithInstitution,
  MemberProfile,
  Message,
  User,
  WorkspaceRole,
} from '../../schemas/protocol.ts';
import type { ConnectionStatus } from '../../worker/api.ts';
import { type ChannelAccess, watchChannelAccess } from '../store/channel-access.ts';
import { watchMentionSuggestions } from '../store/mention-source.ts';
import { joinMessageList } from '../store/message-lists.ts';
import { orderMessages } from '../store/message-order.ts';
import { recordKey } from '../store/records.ts';
import type { SidebarLayout } from '../store/sections.ts';
import { watchSidebar } from '../store/sidebar.ts';
import {
  fetchBrowsableChannels,
  refreshChannelMembers,
  refreshChannelRequests,
  refreshGroups,
  refreshMemberProfile,
  refreshMyRequests,
  refreshSections,
} from './actions.ts';
import { getReadyClient, type LanternClient, startClient, subscribeClientReady } from './client.ts';
import { refreshChannelFiles } from './file-actions.ts';
import { refreshActivities, refreshPinnedMessages, refreshStarredMessages } from './message-actions.ts';
import { type MessageSearchResult, type SearchHit, type SearchSource, searchMessages } from './search.ts';

function useLanternClient(): LanternClient | null {
  const client = useSyncExternalStore(subscribeClientReady, getReadyClient, () => null);
  useEffect(() => {
    if (!client) void startClient();
  }, [client]);
  return client;
}

/** Subscribes to `make(client)`; resets to undefined whenever a dependency changes. */
function useObservable<T>(
  make: (client: LanternClient) => Observable<T>,
  deps: readonly unknown[],
): T | undefined {
  const client = useLanternClient();
  const [state, setState] = useState<{ key: readonly unknown[]; value: T } | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's query inputs
  useEffect(() => {
    if (!client) return;
    const key = deps;
    const sub = make(client).subscribe((value) => setState({ key, value }));
    return () => sub.unsubscribe();
  }, [client, ...deps]);
  if (!state || state.key.length !== deps.length || state.key.some((k, i) => k !== deps[i])) return undefined;
  return state.value;
}

export function useSession(): { token: string; user: User } | null | undefined {
  return useObservable(
    (c) =>
      c.db.session
        .findOne('current')
        .$.pipe(map((doc) => (doc ? { token: doc.token, user: doc.user } : null))),
    [],
  );
}

export function useInstitutions(): InstitutionWithMember[] | undefined {
  return useObservable(
    (c) =>
      c.db.institutions
        .find({ sort: [{ id: 'asc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as InstitutionWithMember))),
    [],
  );
}

export function useSelectedInstitutionId(): string | null | undefined {
  return useObservable(
    (c) => c.db.session.findOne('current').$.pipe(map((doc) => doc?.selectedInstitutionId ?? null)),
    [],
  );
}

/** Joined channels of a workspace and this user's membership rows. */
export function useChannels(
  institutionId: string,
): { channels: ChannelDoc[]; channelMembers: ChannelMemberDoc[] } | undefined {
  return useObservable(
    (c) =>
      combineLatest([
        c.db.channels.find({ selector: { institutionId } }).$,
        c.db.channelMembers.find().$,
      ]).pipe(
        map(([channels, members]) => {
          const memberships = members.map((m) => m.toJSON() as ChannelMemberDoc);
          const joined = new Set(memberships.map((m) => m.channelId));
          const list = channels.map((ch) => ch.toJSON() as ChannelDoc).filter((ch) => joined.has(ch.id));
          const ids = new Set(list.map((ch) => ch.id));
          return { channels: list, channelMembers: memberships.filter((m) => ids.has(m.channelId)) };
        }),
      ),
    [institutionId],
  );
}

/** Channels the user may browse; fetched from the server into the store when the hook mounts. */
export function useBrowsableChannels(institutionId: string): ChannelDoc[] | undefined {
  const [ids, setIds] = useState<{ institutionId: string; ids: string[] } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    fetchBrowsableChannels(institutionId)
      .then((list) => live && setIds({ institutionId, ids: list }))
      .catch(() => live && setIds({ institutionId, ids: [] }));
    return () => {
      live = false;
    };
  }, [institutionId]);
  const all = useObservable(
    (c) =>
      c.db.channels
        .find({ selector: { institutionId } })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as ChannelDoc))),
    [institutionId],
  );
  if (!all || !ids || ids.institutionId !== institutionId) return undefined;
  const wanted = new Set(ids.ids);
  return all.filter((ch) => wanted.has(ch.id));
}

export function useChannel(channelId: string): ChannelDoc | null | undefined {
  return useObservable(
    (c) => c.db.channels.findOne(channelId).$.pipe(map((d) => (d ? (d.toJSON() as ChannelDoc) : null))),
    [channelId],
  );
}

/** Oldest first: confirmed by createdSeq, then pending/failed by createdAt; tombstones excluded. */
export function useMessages(channelId: string): MessageDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.messages
        .find({ selector: { channelId } })
        .$.pipe(map((docs) => orderMessages(docs.map((d) => d.toJSON() as MessageDoc)))),
    [channelId],
  );
}

export function useMembers(institutionId: string): MemberDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.members
        .find({ selector: { institutionId } })
        .$.pipe(
          map((docs) =>
            docs.map((d) => d.toJSON() as MemberDoc).sort((a, b) => a.name.localeCompare(b.name)),
          ),
        ),
    [institutionId],
  );
}

export function useDraft(channelId: string): DraftDoc | null | undefined {
  return useObservable(
    (c) => c.db.drafts.findOne(channelId).$.pipe(map((d) => (d ? (d.toJSON() as DraftDoc) : null))),
    [channelId],
  );
}

/** Drafts of a workspace, most recently changed first. */
export function useDrafts(institutionId: string): DraftDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.drafts
        .find({ selector: { institutionId }, sort: [{ lastUpdateAt: 'desc' }] })
        .$.pipe(map((docs) => docs.map((d) => d.toJSON() as DraftDoc))),
    [institutionId],
  );
}

/** Spec §3 settings; defaults until the stored row loads (never undefined). */
export function useSettings(): SettingsDoc {
  const stored = useObservable(
    (c) =>
      c.db.settings
        .findOne('settings')
        .$.pipe(map((d) => ({ ...SETTINGS_DEFAULTS, ...(d ? (d.toJSON() as Partial<SettingsDoc>) : {}) }))),
    [],
  );
  return stored ?? SETTINGS_DEFAULTS;
}

export function useConnection(): { status: ConnectionStatus; pendingCount: number; failedCount: number } {
  const client = useLanternClient();
  const [status, setStatus] = useState<ConnectionStatus>('offline');
  useEffect(() => {
    if (!client) return;
    return client.events.listen('connection', setStatus);
  }, [client]);
  const counts = useObservable(
    (c) =>
      c.db.messages.find({ selector: { status: { $in: ['pending', 'failed'] } } }).$.pipe(
        map((docs) => ({
          pendingCount: docs.filter((d) => d.status === 'pending').length,
          failedCount: docs.filter((d) => d.status === 'failed').length,
        })),
      ),
    [],
  );
  return { status, pendingCount: counts?.pendingCount ?? 0, failedCount: counts?.failedCount ?? 0 };
}

export function useInvitations(): InvitationWithInstitution[] | undefined {
  return useObservable(
    (c) =>
      c.db.invitations.find().$.pipe(map((docs) => docs.map((d) => d.toJSON() as InvitationWithInstitution))),
    [],
  );
}

// ───────────────────────────── issue 3: roles, members, sections, groups, requests ─────────────────────────────

/** Rows of one record kind under a channel or workspace, live. */
function records$<K extends RecordKind>(
  c: LanternClient,
  kind: K,
  filter: { scope: string } | { institutionId: string },
) {
  return c.db.records
    .find({ selector: { kind, ...filter } })
    .$.pipe(map((docs) => docs.map((d) => (d.toJSON() as RecordDoc<K>).data as RecordKinds[K])));
}

/** Runs `load` once per change of `key` (a background refresh from the server; offline it just fails quietly). */
function useRefreshOnMount(key: string | null, load: () => Promise<unknown>): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: reruns exactly when the key changes
  useEffect(() => {
    if (key === null) return;
    load().catch(() => undefined);
  }, [key]);
}

/** The caller's membership of a channel (null: not a member). */
export function useMyChannelMembership(channelId: string): ChannelMemberDoc | null | undefined {
  return useObservable(
    (c) =>
      c.db.channelMembers
        .find({ selector: { channelId } })
        .$.pipe(map((docs) => (docs[0] ? (docs[0].toJSON() as ChannelMemberDoc) : null))),
    [channelId],
  );
}

/** The channel's roles as stored: default role first, then ownership roles, then by name. */
export function useChannelRoles(channelId: string): ChannelRole[] | undefined {
  return useObservable(
    (c) =>
      records$(c, 'channelRole', { scope: channelId }).pipe(
        map((roles) =>
          [...roles].sort(
            (a, b) =>
              Number(b.isDefault) - Number(a.isDefault) ||
              Number(b.isOwnershipRole) - Number(a.isOwnershipRole) ||
              a.name.localeCompare(b.name),
          ),
        ),
      ),
    [channelId],
  );
}

/**
 * What the caller may do in a channel, evaluated on the device from the stored channel, membership and
 * roles (spec §6; works offline). `cannotPostReason` is the sentence to show when canPost is false.
 */
export function useChannelPermissions(channelId: string): ChannelAccess | undefined {
  const client = useLanternClient();
  // A direct message also needs the other person's membership (did they block me?); fetched on open.
  useRefreshOnMount(client ? channelId : null, async () => {
    const channel = await client?.db.channels.findOne(channelId).exec();
    if (channel?.type === 'direct_message') await refreshChannelMembers(channel.institutionId, channelId);
  });
  return useObservable((c) => watchChannelAccess(c.db, channelId), [channelId]);
}

/** A person in a channel: membership (with role ids) and their workspace member record. */
export interface ChannelMemberView {
  channelMember: ChannelMemberDoc;
  member: MemberDoc | null;
}

/**
 * Everyone in a channel as last fetched (refreshed from the server when the hook mounts), by name.
 * `roleId` keeps only holders of that role.
 */
export function useChannelMembersOf(
  institutionId: string,
  channelId: string,
  roleId?: string,
): ChannelMemberView[] | undefined {
  useRefreshOnMount(channelId ? `${institutionId}/${channelId}` : null, () =>
    refreshChannelMembers(institutionId, channelId),
  );
  return useObservable(
    (c) =>
      combineLatest([
        records$(c, 'channelMember', { scope: channelId }),
        c.db.members.find({ selector: { institutionId } }).$,
      ]).pipe(
        map(([memberships, members]) => {
          const byId = new Map(members.map((m) => [m.id, m.toJSON() as MemberDoc]));
          return memberships
            .filter((m) => !roleId || m.roles.includes(roleId))
            .map((channelMember) => ({ channelMember, member: byId.get(channelMember.memberId) ?? null }))
            .sort((a, b) => (a.member?.name ?? '').localeCompare(b.member?.name ?? ''));
        }),
      ),
    [institutionId, channelId, roleId],
  );
}

/**
 * The caller's sidebar: sections in order with their joined channels (unplaced channels in the default
 * section), each with its local collapsed state, and the direct messages. Refreshed from the server on mount.
 */
export function useSections(institutionId: string): SidebarLayout | undefined {
  useRefreshOnMount(institutionId, () => refreshSections(institutionId));
  return useObservable((c) => watchSidebar(c.db, institutionId), [institutionId]);
}

/** Local only: whether a section is collapsed (false until stored: expanded by default). */
export function useSectionCollapsed(sectionId: string): boolean {
  const collapsed = useObservable(
    (c) =>
      c.db.records
        .findOne(recordKey('sectionCollapsed', sectionId))
        .$.pipe(map((d) => (d ? (d.toJSON() as RecordDoc<'sectionCollapsed'>).data.collapsed : false))),
    [sectionId],
  );
  return collapsed ?? false;
}

/** The workspace's groups by name (refreshed from the server on mount). */
export function useGroups(institutionId: string): Group[] | undefined {
  useRefreshOnMount(institutionId, () => refreshGroups(institutionId));
  return useObservable(
    (c) =>
      records$(c, 'group', { institutionId }).pipe(
        map((list) => [...list].sort((a, b) => a.name.localeCompare(b.name))),
      ),
    [institutionId],
  );
}

export function useGroup(groupId: string): Group | null | undefined {
  return useObservable(
    (c) =>
      c.db.records
        .findOne(recordKey('group', groupId))
        .$.pipe(map((d) => (d ? (d.toJSON() as RecordDoc<'group'>).data : null))),
    [groupId],
  );
}

/** Join requests of a channel the caller manages, pending first then newest (refreshed on mount; live by memberAction). */
export function useChannelRequests(institutionId: string, channelId: string): ChannelRequest[] | undefined {
  // An empty channelId (the caller does not manage the channel) fetches nothing.
  useRefreshOnMount(channelId ? `${institutionId}/${channelId}` : null, () =>
    refreshChannelRequests(institutionId, channelId),
  );
  return useObservable(
    (c) => records$(c, 'channelRequest', { scope: channelId }).pipe(map(sortRequests)),
    [channelId],
  );
}

/** The caller's own join requests in a workspace, pending first then newest (refreshed on mount; live by memberAction). */
export function useMyRequests(institutionId: string): ChannelRequest[] | undefined {
  useRefreshOnMount(institutionId, () => refreshMyRequests(institutionId));
  return useObservable(
    (c) =>
      combineLatest([
        records$(c, 'channelRequest', { institutionId }),
        c.db.institutions.findOne(institutionId).$,
      ]).pipe(map(([list, inst]) => sortRequests(list.filter((r) => r.memberId === inst?.member.id)))),
    [institutionId],
  );
}

function sortRequests(list: ChannelRequest[]): ChannelRequest[] {
  return [...list].sort(
    (a, b) =>
      Number(b.status === 'pending') - Number(a.status === 'pending') ||
      b.createdAt.localeCompare(a.createdAt),
  );
}

/** One workspace member from the store (with live isOnline). */
export function useMember(memberId: string): MemberDoc | null | undefined {
  return useObservable(
    (c) => c.db.members.findOne(memberId).$.pipe(map((d) => (d ? (d.toJSON() as MemberDoc) : null))),
    [memberId],
  );
}

/** A member's profile (member and the channels they show), fetched on mount and kept for offline. */
export function useMemberProfile(institutionId: string, memberId: string): MemberProfile | null | undefined {
  useRefreshOnMount(`${institutionId}/${memberId}`, () => refreshMemberProfile(institutionId, memberId));
  return useObservable(
    (c) =>
      combineLatest([
        c.db.records.findOne(recordKey('memberProfile', memberId)).$,
        c.db.members.findOne(memberId).$,
      ]).pipe(
        map(([profile, member]) => {
          const stored = profile ? (profile.toJSON() as RecordDoc<'memberProfile'>).data : null;
          // The member row carries the live online state; the profile's copy is as old as its fetch.
          if (member) return { member: member.toJSON() as MemberDoc, channels: stored?.channels ?? [] };
          return stored;
        }),
      ),
    [institutionId, memberId],
  );
}

export interface WorkspaceAccess extends WorkspacePermissions {
  role: WorkspaceRole;
  /** primary_owner, owner and admin: change member roles, invite. */
  canManageMembers: boolean;
  isPrimaryOwner: boolean;
}

/** The caller's workspace role and what it allows (spec §6), from the stored workspace. */
export function useWorkspacePermissions(institutionId: string): WorkspaceAccess | null | undefined {
  return useObservable(
    (c) =>
      c.db.institutions.findOne(institutionId).$.pipe(
        map((inst) => {
          if (!inst) return null;
          const role = inst.member.role as WorkspaceRole;
          return {
            ...workspacePermissions(role),
            role,
            canManageMembers: isWorkspaceAdminRole(role),
            isPrimaryOwner: role === 'primary_owner',
          };
        }),
      ),
    [institutionId],
  );
}

/**
 * What to offer after '@' in a channel's composer (spec §5; nothing when the caller may not tag).
 * The channel's members and the workspace's groups are refreshed when the hook mounts; the list itself
 * is computed from the store, so it also works offline.
 */
export function useMentionSuggestions(
  institutionId: string,
  channelId: string,
  query: string,
): MentionSuggestion[] | undefined {
  useRefreshOnMount(`${institutionId}/${channelId}`, () =>
    Promise.all([refreshChannelMembers(institutionId, channelId), refreshGroups(institutionId)]),
  );
  return useObservable(
    (c) => watchMentionSuggestions(c.db, institutionId, channelId, query),
    [institutionId, channelId, query],
  );
}

// ───────────────────────────── issue 4: message actions, lists, search, files ─────────────────────────────

/** One stored message by genId (null: not in the store). */
export function useMessage(genId: string): MessageDoc | null | undefined {
  return useObservable(
    (c) => c.db.messages.findOne(genId).$.pipe(map((d) => (d ? (d.toJSON() as MessageDoc) : null))),
    [genId],
  );
}

function useMessageList(
  kind: 'pinnedMessage' | 'starredMessage',
  institutionId: string,
  channelId: string,
  isIn: (m: MessageDoc) => boolean,
): (MessageDoc | Message)[] | undefined {
  return useObservable(
    (c) =>
      combineLatest([
        records$(c, kind, { scope: channelId }),
        c.db.messages.find({ selector: { channelId } }).$,
      ]).pipe(
        map(([listed, stored]) =>
          joinMessageList(
            listed,
            stored.map((d) => d.toJSON() as MessageDoc),
            isIn,
          ),
        ),
      ),
    [kind, institutionId, channelId],
  );
}

/** The channel's pinned messages, newest first (fetched on mount; pins made here show at once). */
export function usePinnedMessages(
  institutionId: string,
  channelId: string,
): (MessageDoc | Message)[] | undefined {
  useRefreshOnMount(`${institutionId}/${channelId}`, () => refreshPinnedMessages(institutionId, channelId));
  return useMessageList('pinnedMessage', institutionId, channelId, (m) => m.isPinned);
}

/** The caller's starred messages in the channel, newest first (fetched on mount; stars made here show at once). */
export function useStarredMessages(
  institutionId: string,
  channelId: string,
): (MessageDoc | Message)[] | undefined {
  useRefreshOnMount(`${institutionId}/${channelId}`, () => refreshStarredMessages(institutionId, channelId));
  return useMessageList('starredMessage', institutionId, channelId, (m) => m.isStarred);
}

/**
 * The channel's files, newest first, whose name contains `search` (case-insensitive). Fetched on mount
 * and per search; read from the store, so offline it lists the files seen before.
 */
export function useChannelFiles(
  institutionId: string,
  channelId: string,
  search = '',
): FileEntity[] | undefined {
  const query = search.trim();
  useRefreshOnMount(`${institutionId}/${channelId}/${query}`, () =>
    refreshChannelFiles(institutionId, channelId, { search: query }),
  );
  return useObservable(
    (c) =>
      records$(c, 'channelFile', { scope: channelId }).pipe(
        map((files) => {
          const needle = query.toLowerCase();
          return files
            .filter((f) => !needle || f.fileName.toLowerCase().includes(needle))
            .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
        }),
      ),
    [institutionId, channelId, query],
  );
}

/** The caller's activity feed, newest first, with the unread count (fetched on mount). */
export function useActivities(institutionId: string): { activities: Activity[]; unread: number } | undefined {
  useRefreshOnMount(institutionId, () => refreshActivities(institutionId));
  return useObservable(
    (c) =>
      records$(c, 'activity', { scope: institutionId }).pipe(
        map((list) => {
          const activities = [...list].sort((a, b) =>
            a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0,
          );
          return { activities, unread: activities.filter((a) => !a.read).length };
        }),
      ),
    [institutionId],
  );
}

/** Operations the server refused, oldest first: show each as a toast, then dismissNotice(id). */
export function useNotices(institutionId: string): Notice[] | undefined {
  return useObservable(
    (c) =>
      records$(c, 'notice', { institutionId }).pipe(
        map((list) => [...list].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))),
      ),
    [institutionId],
  );
}

/** Files chosen in this channel's composer and not yet posted: status, progress (loaded / fileSize), error. */
export function useUploads(channelId: string): UploadState[] | undefined {
  return useObservable(
    (c) =>
      records$(c, 'upload', { scope: channelId }).pipe(
        map((list) => [...list].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))),
      ),
    [channelId],
  );
}

export interface MessageSearchState {
  results: SearchHit[];
  /** 'device': offline (or the server failed): say "Results from this device". */
  source: SearchSource;
  loading: boolean;
  hasMore: boolean;
  total: number;
  /** The server refused the query (e.g. too long): its message. */
  error: string | null;
  loadMore(): void;
}

/** Searches as the query changes (an empty query: no results); pages append with loadMore(). */
export function useMessageSearch(institutionId: string, query: string): MessageSearchState {
  const [state, setState] = useState<{
    key: string;
    pages: MessageSearchResult[];
    loading: boolean;
    error: string | null;
  }>({ key: '', pages: [], loading: false, error: null });
  const [page, setPage] = useState(1);
  const key = `${institutionId}\n${query.trim()}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts again at page 1
  useEffect(() => setPage(1), [key]);
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setState({ key, pages: [], loading: false, error: null });
      return;
    }
    let live = true;
    setState((s) => ({ key, pages: s.key === key ? s.pages : [], loading: true, error: null }));
    searchMessages(institutionId, q, page)
      .then((res) => {
        if (!live) return;
        setState((s) => ({
          key,
          pages: page === 1 || s.key !== key ? [res] : [...s.pages.slice(0, page - 1), res],
          loading: false,
          error: null,
        }));
      })
      .catch((error: unknown) => {
        if (live)
          setState({
            key,
            pages: [],
            loading: false,
            error: error instanceof Error ? error.message : String(error),
          });
      });
    return () => {
      live = false;
    };
  }, [key, page, institutionId, query]);
  const pages = state.key === key ? state.pages : [];
  const last = pages[pages.length - 1];
  return {
    results: pages.flatMap((p) => p.results),
    source: last?.source ?? 'server',
    loading: state.key !== key || state.loading,
    hasMore: last?.hasMore ?? false,
    total: last?.total ?? 0,
    error: state.key === key ? state.error : null,
    loadMore: () => {
      if (last?.hasMore) setPage(pages.length + 1);
    },
  };
}
