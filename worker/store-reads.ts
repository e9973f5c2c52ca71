// Every live read of the store a tab makes through its worker, by name (decision 0065). The worker runs
// each on its own RxDB instance and sends the tab the results as plain data, so the tab's screens show
// what is stored without the tab loading or running RxDB itself. Each read returns structured-clonable
// values only; the tab keeps unchanged parts of a new result as the objects it already had
// (src/data/store-reads.ts), so memoised rows still skip their render.
import { combineLatest, distinctUntilChanged, map, type Observable, of } from 'rxjs';
import type {
  ChannelDoc,
  ChannelMemberDoc,
  DraftDoc,
  InstitutionDoc,
  InvitationDoc,
  MemberDoc,
  MessageDoc,
  RecordDoc,
  RecordKind,
  RecordKinds,
  SettingsDoc,
} from '../schemas/collections.ts';
import { SETTINGS_DEFAULTS } from '../schemas/collections.ts';
import { isWorkspaceAdminRole, workspacePermissions } from '../schemas/permissions.ts';
import type { User, WorkspaceRole } from '../schemas/protocol/index.ts';
import { watchChannelAccess } from '../src/store/channel-access-live.ts';
import type { LanternCollections } from '../src/store/database.ts';
import { watchMentionSuggestions } from '../src/store/mention-source.ts';
import { joinMessageList } from '../src/store/message-lists.ts';
import { watchMessageWindow } from '../src/store/message-window.ts';
import { recordKey } from '../src/store/records.ts';
import { watchSidebar } from '../src/store/sidebar.ts';
import { unreadTotal } from '../src/store/unread-total.ts';

type Db = LanternCollections;

const plain = <T>(doc: { toJSON(): unknown }): T => doc.toJSON() as T;

/** Rows of one record kind under a channel or workspace, as their data. */
const records = (
  db: Db,
  { kind, ...filter }: { kind: RecordKind } & ({ scope: string } | { institutionId: string }),
) =>
  db.records
    .find({ selector: { kind, ...filter } })
    .$.pipe(map((docs) => docs.map((d) => plain<RecordDoc>(d).data as RecordKinds[RecordKind])));

export const STORE_READS = {
  /** The signed-in person (null: signed out). */
  session: (db: Db) =>
    db.session.findOne('current').$.pipe(
      map((doc) => {
        if (!doc) return null;
        // toJSON: a document's own fields are not all plain objects that can be posted to a tab.
        const { token, user } = doc.toJSON();
        return { token, user: user as User };
      }),
    ),

  selectedInstitutionId: (db: Db) =>
    db.session.findOne('current').$.pipe(map((doc) => doc?.selectedInstitutionId ?? null)),

  /** Spec §3 settings over their defaults. */
  settings: (db: Db) =>
    db.settings
      .findOne('settings')
      .$.pipe(
        map(
          (d): SettingsDoc => ({ ...SETTINGS_DEFAULTS, ...(d ? (d.toJSON() as Partial<SettingsDoc>) : {}) }),
        ),
      ),

  institutions: (db: Db) =>
    db.institutions
      .find({ sort: [{ id: 'asc' }] })
      .$.pipe(map((docs) => docs.map((d) => d.toJSON() as InstitutionDoc))),

  /** The caller's workspace role and what it allows (spec §6); null when the workspace is not stored. */
  workspacePermissions: (db: Db, { institutionId }: { institutionId: string }) =>
    db.institutions.findOne(institutionId).$.pipe(
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

  /** Joined channels of a workspace and the caller's memberships of them. */
  joinedChannels: (db: Db, { institutionId }: { institutionId: string }) =>
    combineLatest([db.channels.find({ selector: { institutionId } }).$, db.channelMembers.find().$]).pipe(
      map(([channels, members]) => {
        const memberships = members.map((m) => m.toJSON() as ChannelMemberDoc);
        const joined = new Set(memberships.map((m) => m.channelId));
        const list = channels.map((ch) => ch.toJSON() as ChannelDoc).filter((ch) => joined.has(ch.id));
        const ids = new Set(list.map((ch) => ch.id));
        return { channels: list, channelMembers: memberships.filter((m) => ids.has(m.channelId)) };
      }),
    ),

  channel: (db: Db, { channelId }: { channelId: string }) =>
    db.channels.findOne(channelId).$.pipe(map((d) => (d ? (d.toJSON() as ChannelDoc) : null))),

  /** The caller's membership of a channel (null: not a member). */
  myChannelMembership: (db: Db, { channelId }: { channelId: string }) =>
    db.channelMembers
      .find({ selector: { channelId } })
      .$.pipe(map((docs) => (docs[0] ? (docs[0].toJSON() as ChannelMemberDoc) : null))),

  channelAccess: (db: Db, { channelId }: { channelId: string }) => watchChannelAccess(db, channelId),

  sidebar: (db: Db, { institutionId }: { institutionId: string }) => watchSidebar(db, institutionId),

  messageWindow: (db: Db, { channelId, size, reach }: { channelId: string; size: number; reach?: number }) =>
    watchMessageWindow(db, channelId, size, reach),

  invitations: (db: Db) =>
    db.invitations.find().$.pipe(map((docs) => docs.map((d) => plain<InvitationDoc>(d)))),

  /** Every stored channel of a workspace (joined or not): the browse list picks from it. */
  workspaceChannels: (db: Db, { institutionId }: { institutionId: string }) =>
    db.channels
      .find({ selector: { institutionId } })
      .$.pipe(map((docs) => docs.map((d) => plain<ChannelDoc>(d)))),

  /** The workspace's members by name. */
  members: (db: Db, { institutionId }: { institutionId: string }) =>
    db.members
      .find({ selector: { institutionId } })
      .$.pipe(
        map((docs) => docs.map((d) => plain<MemberDoc>(d)).sort((a, b) => a.name.localeCompare(b.name))),
      ),

  /** A member with the channels their profile shows (null when neither is stored). */
  memberProfile: (db: Db, { memberId }: { memberId: string }) =>
    combineLatest([
      db.records.findOne(recordKey('memberProfile', memberId)).$,
      db.members.findOne(memberId).$,
    ]).pipe(
      map(([profile, member]) => {
        const stored = profile ? plain<RecordDoc<'memberProfile'>>(profile).data : null;
        // The member row carries the live online state; the profile's copy is as old as its fetch.
        if (member) return { member: plain<MemberDoc>(member), channels: stored?.channels ?? [] };
        return stored;
      }),
    ),

  records,

  /** One record's data (null when not stored). */
  record: (db: Db, { kind, id }: { kind: RecordKind; id: string }) =>
    db.records
      .findOne(recordKey(kind, id))
      .$.pipe(map((doc) => (doc ? (plain<RecordDoc>(doc).data as RecordKinds[RecordKind]) : null))),

  draft: (db: Db, { channelId }: { channelId: string }) =>
    db.drafts.findOne(channelId).$.pipe(map((d) => (d ? plain<DraftDoc>(d) : null))),

  /** Drafts of a workspace, most recently changed first. */
  drafts: (db: Db, { institutionId }: { institutionId: string }) =>
    db.drafts
      .find({ selector: { institutionId }, sort: [{ lastUpdateAt: 'desc' }] })
      .$.pipe(map((docs) => docs.map((d) => plain<DraftDoc>(d)))),

  /** Messages not yet delivered: waiting, and refused or failed. */
  unsentCounts: (db: Db) =>
    db.messages.find({ selector: { status: { $in: ['pending', 'failed'] } } }).$.pipe(
      map((docs) => ({
        pendingCount: docs.filter((d) => d.status === 'pending').length,
        failedCount: docs.filter((d) => d.status === 'failed').length,
      })),
    ),

  /** Why a failed message was not sent (its outbox row), null when it has none. */
  sendFailure: (db: Db, { genId }: { genId: string }) =>
    db.outbox
      .findOne(genId)
      .$.pipe(
        map((row) => (row ? { lastError: row.lastError ?? null, retryable: row.retryable ?? true } : null)),
      ),

  /** Whether link previews are on in the workspace (off when it is not stored). */
  linkPreviewsEnabled: (db: Db, { institutionId }: { institutionId: string }) =>
    db.institutions
      .findOne(institutionId)
      .$.pipe(map((doc) => (doc ? plain<{ linkPreviews?: boolean }>(doc).linkPreviews !== false : false))),

  /** Whether the device holds a message of this member's in the workspace that did not fail. */
  saidHello: (
    db: Db,
    { institutionId, memberId, ask }: { institutionId: string; memberId: string; ask: boolean },
  ) =>
    ask
      ? db.messages
          .findOne({ selector: { institutionId, memberId, status: { $ne: 'failed' } } })
          .$.pipe(map((doc) => doc !== null))
      : of(false),

  /** Unread messages of the person's own memberships, muted ones left out (the app badge). */
  unreadTotal: (db: Db) =>
    combineLatest([db.institutions.find().$, db.channelMembers.find().$]).pipe(
      map(([institutions, memberships]) =>
        unreadTotal(
          institutions.map((d) => plain<InstitutionDoc>(d)),
          memberships.map((d) => plain<ChannelMemberDoc>(d)),
        ),
      ),
      distinctUntilChanged(),
    ),

  /** The caller's own join requests in a workspace. */
  myChannelRequests: (db: Db, { institutionId }: { institutionId: string }) =>
    combineLatest([
      records(db, { kind: 'channelRequest', institutionId }) as Observable<RecordKinds['channelRequest'][]>,
      db.institutions.findOne(institutionId).$,
    ]).pipe(map(([list, inst]) => list.filter((r) => r.memberId === inst?.member.id))),

  /** Everyone in a channel as last fetched, with their workspace member rows, by name. */
  channelMembersOf: (
    db: Db,
    { institutionId, channelId, roleId }: { institutionId: string; channelId: string; roleId: string | null },
  ) =>
    combineLatest([
      records(db, { kind: 'channelMember', scope: channelId }) as Observable<RecordKinds['channelMember'][]>,
      db.members.find({ selector: { institutionId } }).$,
    ]).pipe(
      map(([memberships, members]) => {
        const byId = new Map(members.map((m) => [m.id, plain<MemberDoc>(m)]));
        return memberships
          .filter((m) => !roleId || m.roles.includes(roleId))
          .map((channelMember) => ({ channelMember, member: byId.get(channelMember.memberId) ?? null }))
          .sort((a, b) => (a.member?.name ?? '').localeCompare(b.member?.name ?? ''));
      }),
    ),

  mentionSuggestions: (
    db: Db,
    { institutionId, channelId, query }: { institutionId: string; channelId: string; query: string },
  ) => watchMentionSuggestions(db, institutionId, channelId, query),

  /** The channel's pinned messages, or the caller's starred ones, joined with the stored messages. */
  messageList: (
    db: Db,
    { kind, channelId }: { kind: 'pinnedMessage' | 'starredMessage'; channelId: string },
  ) =>
    combineLatest([
      records(db, { kind, scope: channelId }) as Observable<RecordKinds['pinnedMessage'][]>,
      db.messages.find({ selector: { channelId } }).$,
    ]).pipe(
      map(([listed, stored]) =>
        joinMessageList(
          listed,
          stored.map((d) => plain<MessageDoc>(d)),
          kind === 'pinnedMessage' ? (m) => m.isPinned : (m) => m.isStarred,
        ),
      ),
    ),
} satisfies Record<string, (db: Db, args: never) => Observable<unknown>>;

export type StoreReads = typeof STORE_READS;
export type StoreReadName = keyof StoreReads;
/** What a read takes besides the store ({} for none). */
export type StoreReadArgs<N extends StoreReadName> =
  Parameters<StoreReads[N]> extends [Db, infer A] ? A : Record<string, never>;
/** What a read's live result is. */
export type StoreReadValue<N extends StoreReadName> =
  ReturnType<StoreReads[N]> extends Observable<infer V> ? V : never;

/** Starts a named read on `db`; `args` come from a tab, so an unknown name is refused here. */
export function runStoreRead(db: Db, name: string, args: unknown): Observable<unknown> {
  if (!Object.hasOwn(STORE_READS, name)) throw new Error(`No store read is named ${JSON.stringify(name)}.`);
  const read = STORE_READS[name as StoreReadName] as (db: Db, args: unknown) => Observable<unknown>;
  return read(db, args ?? {});
}
