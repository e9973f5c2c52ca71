// RxDB JSON schemas and document types of every client collection (the local store, spec §3).
// Dexie storage refuses an index on a field that is not `required`, so every indexed field is required
// and number indexes carry minimum/maximum/multipleOf as RxDB demands.
import type { RxJsonSchema } from 'rxdb';
import type {
  Activity,
  AgentAnswer,
  Attachment,
  Channel,
  ChannelMember,
  ChannelRequest,
  ChannelRole,
  FileEntity,
  Group,
  InstitutionWithMember,
  InvitationWithInstitution,
  LinkPreview,
  Member,
  MemberProfile,
  Mention,
  Message,
  Poll,
  Reaction,
  Section,
  User,
} from './protocol/index.ts';

/** Upper bound RxDB needs for number indexes; far above any seq or epoch millisecond. */
const NUMBER_MAX = 9_007_199_254_740_991;
const indexedNumber = { type: 'number', minimum: 0, maximum: NUMBER_MAX, multipleOf: 1 } as const;
const indexedId = { type: 'string', maxLength: 64 } as const;

// ───────────────────────────── messages ─────────────────────────────
export type MessageStatus = 'pending' | 'failed' | 'confirmed';

export interface MessageDoc {
  /** Client-generated UUIDv7: the primary key, so the local echo and the server copy are one row. */
  genId: string;
  /** Server id; null until the server has stored the message. */
  id: string | null;
  status: MessageStatus;
  institutionId: string;
  channelId: string;
  memberId: string;
  content: string;
  replyTo: string | null;
  attachments: Attachment[];
  mentions: Mention[];
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  /** Channel change sequence at the latest change; 0 while not confirmed. */
  seq: number;
  /** Position in the channel; 0 while not confirmed (pending ones sort after, by createdAt). */
  createdSeq: number;
  reactions: Reaction[];
  isPinned: boolean;
  /** A poll message (empty content); results are live. */
  poll: Poll | null;
  forwardedFrom: { messageId: string; channelId: string } | null;
  /** Only on an agent's answer: run state, tool calls, citations. */
  agentAnswer: AgentAnswer | null;
  /** Per person (never broadcast): from this person's star ops, their starred list and star acks. */
  isStarred: boolean;
  /**
   * The message as the server last gave it (or as posted, while pending), before the local operations
   * still in the outbox were laid over it; null when none are. A server copy replaces the base and the
   * queued operations are replayed on top; a refused one is dropped and the rest replayed (rollback).
   */
  base: MessageBase | null;
}
export type MessageBase = Omit<MessageDoc, 'base'>;

export const messageSchema: RxJsonSchema<MessageDoc> = {
  title: 'messages',
  // 1: agentAnswer (issue 5).
  version: 1,
  primaryKey: 'genId',
  type: 'object',
  properties: {
    genId: { type: 'string', maxLength: 40 },
    id: { type: ['string', 'null'] },
    status: { type: 'string', enum: ['pending', 'failed', 'confirmed'], maxLength: 10 },
    institutionId: indexedId,
    channelId: indexedId,
    memberId: { type: 'string' },
    content: { type: 'string' },
    replyTo: { type: ['string', 'null'] },
    attachments: { type: 'array', items: { type: 'object' } },
    mentions: { type: 'array', items: { type: 'object' } },
    createdAt: { type: 'string', maxLength: 40 },
    editedAt: { type: ['string', 'null'] },
    deletedAt: { type: ['string', 'null'] },
    seq: indexedNumber,
    createdSeq: indexedNumber,
    reactions: { type: 'array', items: { type: 'object' } },
    isPinned: { type: 'boolean' },
    poll: { type: ['object', 'null'] },
    forwardedFrom: { type: ['object', 'null'] },
    agentAnswer: { type: ['object', 'null'] },
    isStarred: { type: 'boolean' },
    base: { type: ['object', 'null'] },
  },
  required: [
    'genId',
    'id',
    'status',
    'institutionId',
    'channelId',
    'memberId',
    'content',
    'replyTo',
    'attachments',
    'mentions',
    'createdAt',
    'editedAt',
    'deletedAt',
    'seq',
    'createdSeq',
    'reactions',
    'isPinned',
    'poll',
    'forwardedFrom',
    'isStarred',
    'base',
  ],
  indexes: [['channelId', 'createdSeq'], ['channelId', 'createdAt'], 'status'],
};

// ───────────────────────────── outbox ─────────────────────────────
export type OutboxKind = OutboxOperation['kind'];
/** queued: waiting to be sent (or resent); failed: the server refused it, waits for Retry or Delete. */
export type OutboxState = 'queued' | 'failed';

export interface PostOperation {
  kind: 'post';
  content: string;
  replyTo: string | null;
  attachments: Attachment[];
  mentions: Mention[];
}
/*
 * Operations on an existing message (issue 4). Each carries `opId`, its idempotency key (also the outbox
 * key): the server applies an op once. Toggles carry the wanted end state, so a replay cannot undo
 * itself and applying one twice locally changes nothing. `memberId` is the actor (who reacts, votes).
 * The server id of the message is looked up when sending (the post may still be queued ahead of it).
 */
interface OpBase {
  opId: string;
  memberId: string;
}
export interface EditOperation extends OpBase {
  kind: 'edit';
  content: string;
  mentions: Mention[];
}
export interface DeleteOperation extends OpBase {
  kind: 'delete';
}
export interface ReactionOperation extends OpBase {
  kind: 'reaction';
  emoji: string;
  reacted: boolean;
}
export interface PinOperation extends OpBase {
  kind: 'pin';
  pinned: boolean;
}
export interface StarOperation extends OpBase {
  kind: 'star';
  starred: boolean;
}
export interface PollVoteOperation extends OpBase {
  kind: 'pollVote';
  optionIndexes: number[];
}
export interface PollUnvoteOperation extends OpBase {
  kind: 'pollUnvote';
}
export interface PollCloseOperation extends OpBase {
  kind: 'pollClose';
}
/** genIds[i] is the new message's genId in channelIds[i] (shown at once there as pending copies). */
export interface ForwardOperation extends OpBase {
  kind: 'forward';
  channelIds: string[];
  genIds: string[];
}
/** A new poll message: keyed by its genId like a post (opId = genId). */
export interface PollCreateOperation extends OpBase {
  kind: 'pollCreate';
  question: string;
  options: string[];
  multiple: boolean;
}
export type MessageActionOperation =
  | EditOperation
  | DeleteOperation
  | ReactionOperation
  | PinOperation
  | StarOperation
  | PollVoteOperation
  | PollUnvoteOperation
  | PollCloseOperation
  | ForwardOperation;
export type MessageOperation = PostOperation | PollCreateOperation | MessageActionOperation;
/** Operations that create their message (keyed by its genId); the rest act on an existing one. */
export const isCreatingOperation = (op: OutboxOperation): op is PostOperation | PollCreateOperation =>
  op.kind === 'post' || op.kind === 'pollCreate';
export const isMessageActionOperation = (op: OutboxOperation): op is MessageActionOperation =>
  !isCreatingOperation(op) && !op.kind.startsWith('section');

/*
 * Sidebar layout changes made offline (issue 3, decision 0004). They share the pseudo channel
 * `sectionsOutboxChannel(institutionId)` so they are sent in the order they were made, one at a time,
 * and every one is safe to replay: a create carries the client's section id, a delete of a missing
 * section counts as done, and the rest set absolute values.
 */
export interface SectionCreateOperation {
  kind: 'sectionCreate';
  sectionId: string;
  name: string;
  channels: string[];
}
export interface SectionRenameOperation {
  kind: 'sectionRename';
  sectionId: string;
  name: string;
}
export interface SectionDeleteOperation {
  kind: 'sectionDelete';
  sectionId: string;
}
export interface SectionsReorderOperation {
  kind: 'sectionsReorder';
  sectionIds: string[];
}
/** The channels of every section (PUT channels/sections): what moving a channel sends. */
export interface SectionsLayoutOperation {
  kind: 'sectionsLayout';
  sections: { id: string; channels: string[] }[];
}
export type SectionOperation =
  | SectionCreateOperation
  | SectionRenameOperation
  | SectionDeleteOperation
  | SectionsReorderOperation
  | SectionsLayoutOperation;

export type OutboxOperation = MessageOperation | SectionOperation;

/** The outbox "channel" that keeps one workspace's section changes in order. */
export const sectionsOutboxChannel = (institutionId: string): string => `sections:${institutionId}`;
export const isSectionOperation = (op: OutboxOperation): op is SectionOperation =>
  op.kind.startsWith('section');

export interface OutboxDoc {
  /**
   * Idempotency key: the message genId for a post or new poll, the opId (a UUID) for later message
   * operations, `${kind}:${uuid}` for section operations.
   */
  key: string;
  /** Global enqueue order (epoch ms × 1000 + counter); sending keeps this order within a channel. */
  order: number;
  state: OutboxState;
  institutionId: string;
  /** The message's channel; for section operations sectionsOutboxChannel(institutionId). */
  channelId: string;
  /** The message this operation is about; for section operations the key. */
  genId: string;
  operation: OutboxOperation;
  attempts: number;
  lastError: string | null;
  /**
   * After a refusal (state failed): whether sending the same again may succeed, so Retry is offered
   * (decision 0044). A refusal that would fail again the same way offers Edit or Delete instead.
   */
  retryable?: boolean;
  createdAt: string;
}

export const outboxSchema: RxJsonSchema<OutboxDoc> = {
  title: 'outbox',
  // 1: retryable (issue 15).
  version: 1,
  primaryKey: 'key',
  type: 'object',
  properties: {
    key: { type: 'string', maxLength: 100 },
    order: indexedNumber,
    state: { type: 'string', enum: ['queued', 'failed'], maxLength: 10 },
    institutionId: { type: 'string' },
    channelId: indexedId,
    genId: { type: 'string', maxLength: 40 },
    operation: { type: 'object' },
    attempts: { type: 'number' },
    lastError: { type: ['string', 'null'] },
    retryable: { type: 'boolean' },
    createdAt: { type: 'string' },
  },
  required: [
    'key',
    'order',
    'state',
    'institutionId',
    'channelId',
    'genId',
    'operation',
    'attempts',
    'lastError',
    'createdAt',
  ],
  indexes: ['order', ['channelId', 'order']],
};

// ───────────────────────────── drafts ─────────────────────────────
export interface DraftDoc {
  channelId: string;
  institutionId: string;
  content: string;
  attachments: Attachment[];
  /** Epoch ms of the last change. */
  lastUpdateAt: number;
}

export const draftSchema: RxJsonSchema<DraftDoc> = {
  title: 'drafts',
  version: 0,
  primaryKey: 'channelId',
  type: 'object',
  properties: {
    channelId: indexedId,
    institutionId: indexedId,
    content: { type: 'string' },
    attachments: { type: 'array', items: { type: 'object' } },
    lastUpdateAt: indexedNumber,
  },
  required: ['channelId', 'institutionId', 'content', 'attachments', 'lastUpdateAt'],
  indexes: ['institutionId'],
};

// ───────────────────────────── mirrors of server entities ─────────────────────────────
export type ChannelDoc = Channel;
/** A channel without the fields every new message moves: what a screen about the channel shows. */
export type ChannelFields = Omit<ChannelDoc, 'lastSeq' | 'lastSentMessage'>;
export const channelSchema: RxJsonSchema<ChannelDoc> = {
  title: 'channels',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: indexedId,
    institutionId: indexedId,
    name: { type: 'string' },
    type: { type: 'string' },
    isDefault: { type: 'boolean' },
    defaultRole: { type: ['object', 'null'] },
    directMessageMembers: { type: ['array', 'null'], items: { type: 'string' } },
    createdBy: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    lastSeq: { type: 'number' },
    lastSentMessage: { type: ['object', 'null'] },
    description: { type: ['string', 'null'] },
  },
  required: ['id', 'institutionId', 'name', 'type', 'isDefault', 'createdAt', 'lastSeq'],
  indexes: ['institutionId'],
};

export type ChannelMemberDoc = ChannelMember;
export const channelMemberSchema: RxJsonSchema<ChannelMemberDoc> = {
  title: 'channelMembers',
  // 1: unreadThrough (issue 15 item 1).
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: indexedId,
    channelId: indexedId,
    memberId: { type: 'string' },
    unreadCount: { type: 'number' },
    unreadThrough: { type: 'number' },
    lastReadMessage: { type: ['string', 'null'] },
    roles: { type: 'array', items: { type: 'string' } },
    joinedAt: { type: 'string' },
    muted: { type: 'boolean' },
    blocked: { type: 'boolean' },
    showOnProfile: { type: 'boolean' },
  },
  required: ['id', 'channelId', 'memberId', 'unreadCount', 'roles', 'joinedAt'],
  indexes: ['channelId'],
};

export type MemberDoc = Member;
export const memberSchema: RxJsonSchema<MemberDoc> = {
  title: 'members',
  // 1: kind (issue 5).
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: indexedId,
    institutionId: indexedId,
    role: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    profileImage: { type: ['string', 'null'] },
    user: { type: 'object' },
    createdAt: { type: 'string' },
    kind: { type: 'string' },
  },
  required: ['id', 'institutionId', 'role', 'name', 'email', 'user', 'createdAt'],
  indexes: ['institutionId'],
};

export type InstitutionDoc = InstitutionWithMember;
export const institutionSchema: RxJsonSchema<InstitutionDoc> = {
  title: 'institutions',
  // 1: linkPreviews (decision 0053) and picture (decision 0054).
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: indexedId,
    name: { type: 'string' },
    createdAt: { type: 'string' },
    linkPreviews: { type: 'boolean' },
    picture: { type: ['string', 'null'] },
    member: { type: 'object' },
  },
  required: ['id', 'name', 'createdAt', 'member'],
};

export type InvitationDoc = InvitationWithInstitution;
export const invitationSchema: RxJsonSchema<InvitationDoc> = {
  title: 'invitations',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: indexedId,
    institutionId: { type: 'string' },
    email: { type: 'string' },
    createdAt: { type: 'string' },
    institution: { type: 'object' },
  },
  required: ['id', 'institutionId', 'email', 'createdAt', 'institution'],
};

// ───────────────────────────── records: small lists in one collection ─────────────────────────────
/**
 * Everything small a person has seen, one row per item, in one generic collection so the store stays
 * under the open-source RxDB limit of 13 collections per realm (decision 0004). `scope` is what the
 * row is listed by: the channel for roles, other people's memberships and join requests; the
 * workspace for sections, groups and profiles.
 */
export interface RecordKinds {
  /** A role of a channel (the default role too). Key: role id. Scope: channel. */
  channelRole: ChannelRole;
  /** Someone's membership of a channel (the caller's own rows live in channelMembers). Key: membership id. Scope: channel. */
  channelMember: ChannelMember;
  /** A join request (mine, or one I may answer). Key: request id. Scope: channel. */
  channelRequest: ChannelRequest;
  /** One of the caller's sidebar sections. Key: section id. Scope: workspace. */
  section: Section;
  /** A workspace group. Key: group id. Scope: workspace. */
  group: Group;
  /** A member's profile (member and profile channels) as last fetched. Key: member id. Scope: workspace. */
  memberProfile: MemberProfile;
  /** Local only: a collapsed section (absent: expanded). Key: section id. Scope: workspace. */
  sectionCollapsed: { sectionId: string; collapsed: boolean };
  /** A message of the channel's pinned list as last fetched. Key: message genId. Scope: channel. */
  pinnedMessage: Message;
  /** A message of the caller's starred list as last fetched. Key: message genId. Scope: channel. */
  starredMessage: Message;
  /** An item of the caller's activity feed. Key: activity id. Scope: workspace. */
  activity: Activity;
  /** A file chosen in a composer, its bytes kept in IndexedDB until uploaded (decision 0006). Key: its id. Scope: channel. */
  upload: UploadState;
  /** Something the person must be told: an operation the server refused (a toast). Key: its id. Scope: workspace. */
  notice: Notice;
  /** A file of the channel's Files panel as last fetched. Key: file id. Scope: channel. */
  channelFile: FileEntity;
  /** The preview of a linked page as last fetched (decision 0053). Key: a hash of the address. Scope: workspace. */
  linkPreview: StoredLinkPreview;
}

export interface StoredLinkPreview {
  /** A short hash of the address: record keys are short, addresses are not (linkPreviewId). */
  id: string;
  url: string;
  /** Null: the server could not preview the page (not asked again until it is stale). */
  preview: LinkPreview | null;
  /** Epoch milliseconds of the answer. */
  fetchedAt: number;
}

/** queued: waits for a connection; uploading: bytes on the way; uploaded: registered (attachment set); failed: see error. */
export type UploadStatus = 'queued' | 'uploading' | 'uploaded' | 'failed';
export interface UploadState {
  /** Also the attachment id the composer and a queued post use until the upload is registered. */
  id: string;
  institutionId: string;
  channelId: string;
  fileName: string;
  fileType: string;
  fileSize: number;
  status: UploadStatus;
  /** Bytes sent so far (progress bar: loaded / fileSize). */
  loaded: number;
  error: string | null;
  /** Set once the bytes are stored (a retry then only registers). */
  fileKey: string | null;
  /** The registered file as a message carries it; set when uploaded. */
  attachment: Attachment | null;
  createdAt: string;
}

export interface Notice {
  id: string;
  /** The server's message (or ours), shown as is. */
  message: string;
  /** What was refused, e.g. 'reaction', 'pin', 'edit'. */
  operation: string;
  genId: string | null;
  createdAt: string;
}
export type RecordKind = keyof RecordKinds;
export const RECORD_KINDS = [
  'channelRole',
  'channelMember',
  'channelRequest',
  'section',
  'group',
  'memberProfile',
  'sectionCollapsed',
  'pinnedMessage',
  'starredMessage',
  'activity',
  'upload',
  'notice',
  'channelFile',
  'linkPreview',
] as const satisfies readonly RecordKind[];

export interface RecordDoc<K extends RecordKind = RecordKind> {
  /** `${kind}:${id}`. */
  key: string;
  kind: K;
  /** Channel or workspace id the row is listed under (see RecordKinds). */
  scope: string;
  institutionId: string;
  data: RecordKinds[K];
}

export const recordSchema: RxJsonSchema<RecordDoc> = {
  title: 'records',
  version: 0,
  primaryKey: 'key',
  type: 'object',
  properties: {
    key: { type: 'string', maxLength: 100 },
    kind: { type: 'string', maxLength: 24 },
    scope: indexedId,
    institutionId: indexedId,
    data: { type: 'object' },
  },
  required: ['key', 'kind', 'scope', 'institutionId', 'data'],
  indexes: [
    ['kind', 'scope'],
    ['kind', 'institutionId'],
  ],
};

// ───────────────────────────── local-only state ─────────────────────────────
export interface SyncStateDoc {
  channelId: string;
  institutionId: string;
  /** Highest seq up to which every change of this channel is in the store (contiguous). */
  checkpoint: number;
}
export const syncStateSchema: RxJsonSchema<SyncStateDoc> = {
  title: 'syncState',
  version: 0,
  primaryKey: 'channelId',
  type: 'object',
  properties: {
    channelId: indexedId,
    institutionId: { type: 'string' },
    checkpoint: { type: 'number' },
  },
  required: ['channelId', 'institutionId', 'checkpoint'],
};

/** Spec §3 "Settings (persisted locally)"; the field name mostRecentSiginProviderUsed is spelled as specified. */
export interface SettingsDoc {
  id: 'settings';
  showDMs: boolean;
  showChannels: boolean;
  showIosAddToScreenTutorial: boolean;
  showAdvancedKeyboard: boolean;
  isDesktop: boolean;
  showAuthorAvatarInMessages: boolean;
  showImagesInChannel: boolean;
  mostRecentSiginProviderUsed: string | null;
  installPromptDismissed: boolean;
  /** Play message-received.mp3 for a notification (spec §9). */
  playNotificationSound: boolean;
}
export const SETTINGS_DEFAULTS: SettingsDoc = {
  id: 'settings',
  showDMs: true,
  showChannels: true,
  showIosAddToScreenTutorial: true,
  showAdvancedKeyboard: false,
  isDesktop: false,
  showAuthorAvatarInMessages: true,
  showImagesInChannel: true,
  mostRecentSiginProviderUsed: null,
  installPromptDismissed: false,
  playNotificationSound: true,
};
export const settingsSchema: RxJsonSchema<SettingsDoc> = {
  title: 'settings',
  version: 1,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 16 },
    showDMs: { type: 'boolean' },
    showChannels: { type: 'boolean' },
    showIosAddToScreenTutorial: { type: 'boolean' },
    showAdvancedKeyboard: { type: 'boolean' },
    isDesktop: { type: 'boolean' },
    showAuthorAvatarInMessages: { type: 'boolean' },
    showImagesInChannel: { type: 'boolean' },
    mostRecentSiginProviderUsed: { type: ['string', 'null'] },
    installPromptDismissed: { type: 'boolean' },
    playNotificationSound: { type: 'boolean' },
  },
  required: ['id'],
};

/** The signed-in user; one row with id 'current'. Local only, cleared on sign-out. */
export interface SessionDoc {
  id: 'current';
  token: string;
  user: User;
  /** Last opened workspace, so a reload returns to it. */
  selectedInstitutionId: string | null;
}
export const sessionSchema: RxJsonSchema<SessionDoc> = {
  title: 'session',
  version: 0,
  primaryKey: 'id',
  type: 'object',
  properties: {
    id: { type: 'string', maxLength: 16 },
    token: { type: 'string' },
    user: { type: 'object' },
    selectedInstitutionId: { type: ['string', 'null'] },
  },
  required: ['id', 'token', 'user', 'selectedInstitutionId'],
};

/** Every collection, by name: the single list database.ts opens. */
export const collectionSchemas = {
  messages: messageSchema,
  outbox: outboxSchema,
  drafts: draftSchema,
  channels: channelSchema,
  channelMembers: channelMemberSchema,
  members: memberSchema,
  institutions: institutionSchema,
  invitations: invitationSchema,
  syncState: syncStateSchema,
  settings: settingsSchema,
  session: sessionSchema,
  records: recordSchema,
} as const;
export type CollectionName = keyof typeof collectionSchemas;

/**
 * How documents stored by an earlier version of the app reach the current schema: one function per
 * version step, per collection whose schema has moved. A device that has been offline across an upgrade
 * keeps its outbox and drafts; nothing is thrown away to make the schemas fit.
 */
type Migration = (old: Record<string, unknown>) => Record<string, unknown>;
export const collectionMigrations: Partial<Record<CollectionName, Record<number, Migration>>> = {
  messages: { 1: (old) => ({ ...old, agentAnswer: null }) },
  // Failures recorded before it was known: Retry stays offered, as it always was.
  outbox: { 1: (old) => ({ ...old, retryable: true }) },
  members: { 1: (old) => ({ ...old, kind: 'user' }) },
  settings: { 1: (old) => ({ ...old, playNotificationSound: true }) },
  // Described channels come with the next fetch of the joined list.
  channels: { 1: (old) => ({ ...old, description: null }) },
  // A count without its seq is taken as it is, as before, until the next fetch of the joined list.
  channelMembers: { 1: (old) => old },
  // On, as every workspace is until an admin says otherwise; the next fetch of the list brings the truth.
  institutions: { 1: (old) => ({ ...old, linkPreviews: true, picture: null }) },
};
