// Drizzle schema: one pg-core schema used unchanged on PGlite (embedded) and PostgreSQL (DATABASE_URL).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  AgentAnswer,
  Attachment,
  ForwardedFrom,
  McpTransport,
  Mention,
} from '../../schemas/protocol/index.ts';

/** Stored reactions: who reacted with each emoji, in order (count is derived on the wire). */
export interface StoredReaction {
  emoji: string;
  memberIds: string[];
}
/** Stored poll: votes as the member ids per option. */
export interface StoredPoll {
  question: string;
  options: { text: string; memberIds: string[] }[];
  multiple: boolean;
  closedAt: string | null;
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  profileImage: text('profile_image'),
  createdAt: createdAt(),
  lastSeenAt: ts('last_seen_at'),
});

/** Access tokens are stored only as SHA-256 hashes: a leaked database does not leak sessions. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    sessionClientId: text('session_client_id'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Sign-in codes mailed and not yet used. An address may have several live codes: a new request never voids
 * an earlier one, so a stranger asking for codes cannot spoil the code its owner is typing (decision 0014).
 */
export const signinCodes = pgTable(
  'signin_codes',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('signin_codes_email_idx').on(t.email, t.expiresAt)],
);

/**
 * A log of sign-in attempts by address and client IP, counted over a recent window on every node: each row
 * is one event, indexed for the per-address and per-IP counts.
 */
const addressIpLog = (name: string) =>
  pgTable(
    name,
    {
      id: text('id').primaryKey(),
      email: text('email').notNull(),
      ip: text('ip').notNull(),
      createdAt: createdAt(),
    },
    (t) => [
      index(`${name}_email_idx`).on(t.email, t.createdAt),
      index(`${name}_ip_idx`).on(t.ip, t.createdAt),
    ],
  );

/** Every code request, kept for rate limiting per address, per address and IP, and per IP across nodes. */
export const signinRequests = addressIpLog('signin_requests');

/** Wrong sign-in codes, per address and IP: each one beyond a few makes the next guess wait longer. */
export const signinFailures = addressIpLog('signin_failures');

/**
 * One row per invitation e-mail sent, for the daily limits per inviter and per workspace. Separate from
 * `invitations` so that revoking and re-inviting cannot reset the count.
 */
export const invitationSends = pgTable(
  'invitation_sends',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id').notNull(),
    inviterUserId: text('inviter_user_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('invitation_sends_institution_idx').on(t.institutionId, t.createdAt),
    index('invitation_sends_inviter_idx').on(t.inviterUserId, t.createdAt),
  ],
);

export const institutions = pgTable('institutions', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  /** Most tokens (in + out) the workspace's agent runs may use per UTC day; null: no cap. */
  agentDailyTokenCap: bigint('agent_daily_token_cap', { mode: 'number' }),
  /** Metrics may name members (most-visited members); a workspace turns it off for its people's privacy. */
  memberMetricsEnabled: boolean('member_metrics_enabled').notNull().default(true),
  /** Previews (title, description, picture) under messages' links; an admin turns them off (decision 0053). */
  linkPreviews: boolean('link_previews').notNull().default(true),
  /** The workspace's picture: a small data URL, as a person's profile picture (decision 0054). */
  picture: text('picture'),
  createdAt: createdAt(),
});

export const members = pgTable(
  'members',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['primary_owner', 'owner', 'admin', 'member', 'guest'] }).notNull(),
    /** 'agent': an AI agent's member row (server/agents); its user row never signs in. */
    kind: text('kind', { enum: ['user', 'agent'] })
      .notNull()
      .default('user'),
    /** When this member put away the workspace's getting-started checklist (decision 0045); null: shown. */
    checklistDismissedAt: ts('checklist_dismissed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('members_institution_user_uq').on(t.institutionId, t.userId),
    index('members_user_idx').on(t.userId),
  ],
);

export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedBy: text('invited_by').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_institution_email_uq').on(t.institutionId, t.email),
    index('invitations_email_idx').on(t.email),
  ],
);

/**
 * A workspace's shareable invite link (decision 0045): anyone signed in who opens it joins as a member
 * until it expires or an admin revokes it. One live link per workspace; regenerating revokes the old one.
 * The token is kept as written so admins can copy the link again; it grants membership of this workspace
 * only, like an invitation, never a session.
 */
export const inviteLinks = pgTable(
  'invite_links',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    createdBy: text('created_by').references(() => members.id, { onDelete: 'set null' }),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [index('invite_links_institution_idx').on(t.institutionId, t.createdAt)],
);

export const channels = pgTable(
  'channels',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** What the channel is for, shown under its name; null until someone writes one. */
    description: text('description'),
    type: text('type', { enum: ['public', 'private', 'direct_message'] }).notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    defaultRoleId: text('default_role_id'),
    /** For direct messages: the two member ids sorted and joined, unique so there is one DM per pair. */
    directMessageKey: text('direct_message_key').unique(),
    createdBy: text('created_by').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /**
     * The channel's change sequence. Every message create, edit and delete increments it inside the same
     * transaction (UPDATE … RETURNING), which also row-locks the channel: sequence order is commit order.
     */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    /**
     * Messages ever created here, deleted ones included: raised with last_seq by every create. Unread
     * counts are differences of it (server/messages/unread.ts), so a post writes no row per member.
     */
    messageCount: bigint('message_count', { mode: 'number' }).notNull().default(0),
    lastMessageId: text('last_message_id'),
    lastMessageAt: ts('last_message_at'),
    /**
     * Raised by the database (triggers of migration 0006) whenever who may post here could have changed:
     * a member joined, left or (un)blocked, a role was given, taken or edited, the channel's type, default
     * role or other details changed, or a member's workspace role changed. A post's batch reads it back
     * with the sequence, so access remembered between posts (server/messages/access-cache.ts) is used only
     * while it is still current.
     */
    accessVersion: bigint('access_version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('channels_institution_idx').on(t.institutionId)],
);

export const channelRoles = pgTable(
  'channel_roles',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    isOwnershipRole: boolean('is_ownership_role').notNull().default(false),
    canPinMessage: boolean('can_pin_message').notNull().default(false),
    canPost: boolean('can_post').notNull().default(true),
    canTag: boolean('can_tag').notNull().default(false),
    canAddMembers: boolean('can_add_members').notNull().default(false),
    canDeleteMessage: boolean('can_delete_message').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('channel_roles_channel_idx').on(t.channelId)],
);

export const channelMembers = pgTable(
  'channel_members',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /**
     * Where the member's reading stands (server/messages/unread.ts): the channel's last_seq and
     * message_count when they last read it or joined it, and how many messages they wrote since.
     * Unread = message_count - read_count - own_since_read - others' deleted messages created after read_seq.
     */
    readSeq: bigint('read_seq', { mode: 'number' }).notNull().default(0),
    readCount: bigint('read_count', { mode: 'number' }).notNull().default(0),
    ownSinceRead: integer('own_since_read').notNull().default(0),
    lastReadMessageId: text('last_read_message_id'),
    joinedAt: ts('joined_at').notNull().defaultNow(),
    /** The member's own setting: no notifications from this channel. */
    muted: boolean('muted').notNull().default(false),
    /** Direct messages: this member blocked the other one, whose posts here are then refused. */
    blocked: boolean('blocked').notNull().default(false),
    /** The member chose to show this channel on their profile. */
    showOnProfile: boolean('show_on_profile').notNull().default(false),
  },
  (t) => [
    uniqueIndex('channel_members_channel_member_uq').on(t.channelId, t.memberId),
    index('channel_members_member_idx').on(t.memberId),
  ],
);

export const channelMemberRoles = pgTable(
  'channel_member_roles',
  {
    channelMemberId: text('channel_member_id')
      .notNull()
      .references(() => channelMembers.id, { onDelete: 'cascade' }),
    roleId: text('role_id')
      .notNull()
      .references(() => channelRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.channelMemberId, t.roleId] })],
);

/** A workspace member asking to join a private channel; at most one pending request per person and channel. */
export const channelRequests = pgTable(
  'channel_requests',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    decidedAt: ts('decided_at'),
    decidedBy: text('decided_by').references(() => members.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('channel_requests_channel_idx').on(t.channelId, t.status),
    index('channel_requests_member_idx').on(t.memberId),
    // Two requests racing from two tabs end as one.
    uniqueIndex('channel_requests_one_pending_uq')
      .on(t.channelId, t.memberId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    /** The client's id for the message. The unique index is what makes postMessage idempotent. */
    genId: text('gen_id').notNull(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    /**
     * The author's member id. No foreign key: someone who leaves the workspace (their member row is
     * deleted) leaves their messages behind, and deleting rows would bypass the change sequence.
     */
    memberId: text('member_id').notNull(),
    content: text('content').notNull(),
    replyTo: text('reply_to'),
    attachments: jsonb('attachments').$type<Attachment[]>().notNull().default(sql`'[]'::jsonb`),
    mentions: jsonb('mentions').$type<Mention[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    editedAt: ts('edited_at'),
    deletedAt: ts('deleted_at'),
    /** Channel sequence at the latest change. */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** Channel sequence at creation: the message's fixed position in its channel. */
    createdSeq: bigint('created_seq', { mode: 'number' }).notNull(),
    /**
     * The message's text without HTML, for full-text search (server/search). Generated by the database so
     * every writer (post, edit, delete, forward) keeps it right without knowing about search.
     */
    plainText: text('plain_text')
      .notNull()
      .generatedAlwaysAs(
        sql`btrim(regexp_replace(replace(replace(replace(replace(replace(replace(regexp_replace(content, '<[^>]*>', ' ', 'g'), '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'), '[[:space:]]+', ' ', 'g'))`,
      ),
    /** Shared message-action state (server/messages/*): reactions, pin, poll and where a forward came from. */
    reactions: jsonb('reactions').$type<StoredReaction[]>().notNull().default(sql`'[]'::jsonb`),
    pinnedAt: ts('pinned_at'),
    poll: jsonb('poll').$type<StoredPoll>(),
    forwardedFrom: jsonb('forwarded_from').$type<ForwardedFrom>(),
    /** Only on an agent's answer: run state, tool calls and citations (server/agents). */
    agentAnswer: jsonb('agent_answer').$type<AgentAnswer>(),
  },
  (t) => [
    uniqueIndex('messages_gen_id_uq').on(t.genId),
    index('messages_channel_pinned_idx').on(t.channelId, t.pinnedAt),
    index('messages_search_idx').using('gin', sql`to_tsvector('simple', ${t.plainText})`),
    index('messages_channel_seq_idx').on(t.channelId, t.seq),
    index('messages_channel_created_seq_idx').on(t.channelId, t.createdSeq),
    // Deleted messages only (few): what an unread count subtracts (server/messages/unread.ts).
    index('messages_channel_deleted_idx')
      .on(t.channelId, t.createdSeq)
      .where(sql`${t.deletedAt} is not null`),
    // Answers still under way, found when a server starts or stops (server/agents/interrupted-answers).
    index('messages_unfinished_answer_idx')
      .on(t.id)
      .where(sql`(${t.agentAnswer}->>'status') in ('thinking', 'streaming', 'awaiting_approval')`),
  ],
);

/**
 * Sidebar sections: each member arranges their own. One default section per member ("Channels") also
 * shows every joined channel that is in no section.
 */
export const channelSections = pgTable(
  'channel_sections',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('channel_sections_member_idx').on(t.memberId),
    // Two first reads racing create one default section, not two.
    uniqueIndex('channel_sections_one_default_uq').on(t.memberId).where(sql`${t.isDefault}`),
  ],
);

/** A channel sits in at most one section of a member (the unique index), in `position` order. */
export const channelSectionChannels = pgTable(
  'channel_section_channels',
  {
    sectionId: text('section_id')
      .notNull()
      .references(() => channelSections.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sectionId, t.channelId] }),
    uniqueIndex('channel_section_channels_member_channel_uq').on(t.memberId, t.channelId),
  ],
);

/** Workspace groups: mentionable sets of members, managed by workspace admins. */
export const groups = pgTable(
  'groups',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdBy: text('created_by').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groups_institution_name_uq').on(t.institutionId, sql`lower(${t.name})`)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.memberId] }), index('group_members_member_idx').on(t.memberId)],
);

/** Who looked at which member, channel or group, and when: read by the metrics pages. */
export const visits = pgTable(
  'visits',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    visitorMemberId: text('visitor_member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: ['member', 'channel', 'group'] }).notNull(),
    targetId: text('target_id').notNull(),
    /**
     * Counted for metrics: no counted visit by the same person to the same target in the 30 minutes
     * before. Set by the database when the row is written (server/metrics/rollup-triggers.ts).
     */
    counted: boolean('counted').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index('visits_metrics_idx').on(t.institutionId, t.targetType, t.createdAt),
    index('visits_visitor_target_idx').on(t.visitorMemberId, t.targetId, t.createdAt),
  ],
);

/**
 * Files posted in a channel. Bytes live under DATA_DIR/files/<fileKey> or in S3 under the same key;
 * third-party files (a GIF service) have only an address. The key is unique: first registration owns it.
 */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** The uploader's member id (no foreign key, like messages: files outlive their uploader's membership). */
    memberId: text('member_id').notNull(),
    fileKey: text('file_key').unique(),
    fileUrl: text('file_url'),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    isFromThirdParty: boolean('is_from_third_party').notNull().default(false),
    meta: jsonb('meta')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    isUploading: boolean('is_uploading').notNull().default(true),
    uploadFailed: boolean('upload_failed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_channel_created_idx').on(t.channelId, t.createdAt),
    index('files_institution_created_idx').on(t.institutionId, t.createdAt),
  ],
);

/**
 * Message actions already applied, by the client's idempotency key: a repeat of an opId is answered with
 * the current message and changes nothing. `result` keeps what a flip decided (e.g. starred) or created.
 */
export const messageOps = pgTable('message_ops', {
  opId: text('op_id').primaryKey(),
  memberId: text('member_id').notNull(),
  kind: text('kind').notNull(),
  messageId: text('message_id').notNull(),
  result: jsonb('result').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  /** The op's arguments as first applied: a replay must repeat them exactly or is refused. */
  args: jsonb('args').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
});

/**
 * Every message the server wrote a file into (a post, a forward): with the file's own channel and
 * uploader, the only grounds for reading it. Written by the server, never taken from message JSON.
 */
export const fileAttachments = pgTable(
  'file_attachments',
  {
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.messageId] })],
);

/**
 * Bytes the server agreed to take, one row per signed upload, kept while the bytes are: the ledger the
 * per-person and per-workspace upload caps count, and what the sweep removes when never registered.
 * No foreign keys: a row must outlive a deleted workspace so its bytes can still be found and removed.
 */
export const uploadGrants = pgTable(
  'upload_grants',
  {
    fileKey: text('file_key').primaryKey(),
    userId: text('user_id').notNull(),
    institutionId: text('institution_id').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('upload_grants_user_idx').on(t.userId),
    index('upload_grants_institution_idx').on(t.institutionId),
  ],
);

/** Stars are private to each person. */
export const messageStars = pgTable(
  'message_stars',
  {
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.messageId] }),
    index('message_stars_member_channel_idx').on(t.memberId, t.channelId, t.createdAt),
  ],
);

/** The activity feed: one row per recipient, written in the transaction of the message or reaction. */
export const activities = pgTable(
  'activities',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    recipientMemberId: text('recipient_member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['mention', 'reply', 'reaction'] }).notNull(),
    messageId: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    actorMemberId: text('actor_member_id').notNull(),
    emoji: text('emoji'),
    createdAt: createdAt(),
    readAt: ts('read_at'),
  },
  (t) => [index('activities_recipient_idx').on(t.recipientMemberId, t.createdAt)],
);

/**
 * An agent's MCP server (server/mcp/*). The transport is stored as given (stdio command/args or HTTP URL and
 * headers); environment variables only as one AES-256-GCM blob (server/mcp/secret-box.ts), so a copy of the
 * database alone does not reveal them. Deleting the agent deletes its connections.
 */
export const mcpConnections = pgTable(
  'mcp_connections',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.memberId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    transport: jsonb('transport').$type<McpTransport>().notNull(),
    environmentCipher: text('environment_cipher').notNull(),
    environmentNames: jsonb('environment_names').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('mcp_connections_agent_idx').on(t.institutionId, t.agentId)],
);

/** An AI agent's settings; its identity (name, picture, channel memberships, messages) is its member row. */
export const agents = pgTable(
  'agents',
  {
    memberId: text('member_id')
      .primaryKey()
      .references(() => members.id, { onDelete: 'cascade' }),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    instructions: text('instructions').notNull().default(''),
    model: text('model'),
    invokableBy: text('invokable_by', { enum: ['everyone', 'channel_owners', 'nobody'] })
      .notNull()
      .default('everyone'),
    maxToolSteps: integer('max_tool_steps').notNull().default(8),
    approveAllTools: boolean('approve_all_tools').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('agents_institution_idx').on(t.institutionId)],
);

/** A document an agent answers from; its text lives in knowledge_chunks. */
export const knowledgeSources = pgTable(
  'knowledge_sources',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.memberId, { onDelete: 'cascade' }),
    type: text('type', { enum: ['text', 'file', 'url'] }).notNull(),
    title: text('title').notNull(),
    status: text('status', { enum: ['processing', 'ready', 'failed'] })
      .notNull()
      .default('processing'),
    error: text('error'),
    size: integer('size').notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('knowledge_sources_agent_idx').on(t.agentId)],
);

/** Passages of a knowledge source, searched with full-text search (english stemming, works on PGlite). */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id')
      .notNull()
      .references(() => knowledgeSources.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    position: integer('position').notNull(),
    content: text('content').notNull(),
  },
  (t) => [
    index('knowledge_chunks_agent_idx').on(t.agentId),
    index('knowledge_chunks_search_idx').using('gin', sql`to_tsvector('english', ${t.content})`),
  ],
);

/**
 * The audit of agent runs: one row per run (written when it ends), read by the usage table and the daily
 * token cap. Rows outlive their agent and asker (no foreign keys) so the audit stays whole.
 */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    agentId: text('agent_id').notNull(),
    askerMemberId: text('asker_member_id').notNull(),
    channelId: text('channel_id').notNull(),
    answerMessageId: text('answer_message_id'),
    model: text('model'),
    tokensIn: integer('tokens_in').notNull().default(0),
    tokensOut: integer('tokens_out').notNull().default(0),
    toolCalls: jsonb('tool_calls').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    durationMs: integer('duration_ms').notNull().default(0),
    outcome: text('outcome', { enum: ['succeeded', 'failed', 'stopped', 'refused'] }).notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('agent_runs_institution_created_idx').on(t.institutionId, t.createdAt),
    index('agent_runs_agent_created_idx').on(t.agentId, t.createdAt),
  ],
);

// ── Account deletion ──

/**
 * The member ids of people who deleted their account. Their member rows are gone (like someone who left)
 * but their messages may stay: clients show those authors as "Deleted user" rather than "Unknown member".
 */
export const deletedMembers = pgTable(
  'deleted_members',
  {
    memberId: text('member_id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    deletedAt: ts('deleted_at').notNull().defaultNow(),
  },
  (t) => [index('deleted_members_institution_idx').on(t.institutionId)],
);

// ── Sign-in through identity providers (server/identity/) ──
/**
 * A person's account at an identity provider, linked to one Lantern user. A person is (issuer, subject),
 * never an e-mail address: the address the provider last reported is kept only to show it in Settings.
 */
export const identities = pgTable(
  'identities',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerId: text('provider_id').notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('identities_issuer_subject_idx').on(t.issuer, t.subject),
    index('identities_user_idx').on(t.userId),
  ],
);

/**
 * One provider sign-in in flight: the PKCE verifier and nonce the server keeps, bound to the browser by a
 * hash of a secret only the main window holds. Single use (usedAt), short-lived (expiresAt). After the
 * token is verified, an identity that still needs its address confirmed by e-mail code keeps its claims
 * here until then.
 */
export const identityLogins = pgTable(
  'identity_logins',
  {
    state: text('state').primaryKey(),
    providerId: text('provider_id').notNull(),
    bindingHash: text('binding_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    pending: jsonb('pending').$type<{ issuer: string; subject: string; email: string }>(),
    usedAt: ts('used_at'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('identity_logins_expires_idx').on(t.expiresAt)],
);

// ── LTI 1.3 tool (server/lti/, decision 0027) ──

/**
 * A learning platform (Moodle, Canvas) registered by a workspace admin. Its launches only ever reach the
 * workspaces created for its own course contexts (ltiContexts), never the one it was registered from.
 * (issuer, clientId) is unique: a second workspace cannot register a copy of a platform to catch its
 * launches.
 */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    /** The admin who registered it: primary owner of the course workspaces it creates. */
    registeredBy: text('registered_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    tokenUrl: text('token_url').notNull(),
    keySetUrl: text('key_set_url').notNull(),
    deploymentIds: jsonb('deployment_ids').$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('lti_platforms_issuer_client_uq').on(t.issuer, t.clientId),
    index('lti_platforms_institution_idx').on(t.institutionId),
  ],
);

/** A login initiation's state and nonce: consumed (deleted) by the one launch that presents it. */
export const ltiStates = pgTable('lti_states', {
  stateHash: text('state_hash').primaryKey(),
  platformId: text('platform_id')
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
  nonce: text('nonce').notNull(),
  /**
   * Where the platform offered LTI postMessage storage (lti_storage_target): the frame it names and the key
   * under which this browser put the state, so the launch page can prove it is the browser that started.
   */
  storageTarget: text('storage_target'),
  storageKey: text('storage_key'),
  expiresAt: ts('expires_at').notNull(),
});

/** A verified launch waiting for its page to exchange the short-lived ltik (single use) for a session. */
export const ltiLaunches = pgTable('lti_launches', {
  ltikHash: text('ltik_hash').primaryKey(),
  platformId: text('platform_id')
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  institutionId: text('institution_id')
    .notNull()
    .references(() => institutions.id, { onDelete: 'cascade' }),
  channelId: text('channel_id'),
  /** Set when the login kept its state in the platform's storage: the exchange must present that state. */
  stateHash: text('state_hash'),
  /** For a deep-linking request: where and how to answer the platform. */
  deepLinking: jsonb('deep_linking').$type<{
    returnUrl: string;
    data: string | null;
    deploymentId: string;
    deepLinkTokenHash?: string;
  }>(),
  expiresAt: ts('expires_at').notNull(),
});

/** A person as a platform knows them (its `sub`): never matched to an account by e-mail. */
export const ltiAccounts = pgTable(
  'lti_accounts',
  {
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.subject] }), index('lti_accounts_user_idx').on(t.userId)],
);

/** A course (platform context) and the workspace created for it on its first launch. */
export const ltiContexts = pgTable(
  'lti_contexts',
  {
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    contextId: text('context_id').notNull(),
    institutionId: text('institution_id')
      .notNull()
      .references(() => institutions.id, { onDelete: 'cascade' }),
    /** When the roster was last read through Names and Role Provisioning (null: never). */
    rosterSyncedAt: ts('roster_synced_at'),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.contextId] })],
);

/** A resource link (a placement in a course) and its channel; deep linking may point one at a chosen channel. */
export const ltiResourceLinks = pgTable(
  'lti_resource_links',
  {
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    resourceLinkId: text('resource_link_id').notNull(),
    channelId: text('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.platformId, t.resourceLinkId] })],
);

/** A one-time address a workspace admin pastes into a platform for LTI Dynamic Registration. */
export const ltiRegistrationLinks = pgTable('lti_registration_links', {
  codeHash: text('code_hash').primaryKey(),
  institutionId: text('institution_id')
    .notNull()
    .references(() => institutions.id, { onDelete: 'cascade' }),
  createdBy: text('created_by')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: ts('expires_at').notNull(),
});

// ── Web Push (decision 0032) ──

/**
 * A browser's push subscription, one per session: signing out (or the session's deletion) ends it, and a
 * push service answering 404/410 deletes it. Only what RFC 8291 needs to encrypt for it is kept.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The subscribing page ran as the installed app (spec §3 isPwa). */
    isPwa: boolean('is_pwa').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('push_subscriptions_user_idx').on(t.userId),
    index('push_subscriptions_endpoint_idx').on(t.endpoint),
  ],
);

/**
 * When each session last showed its person at work, and in which channel: a push is held back while they
 * are active in the message's channel on any device (server/push/decision.ts), whether or not a socket is open.
 */
export const sessionActivity = pgTable(
  'session_activity',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: text('channel_id'),
    activeAt: ts('active_at').notNull().defaultNow(),
  },
  (t) => [index('session_activity_user_idx').on(t.userId, t.activeAt)],
);

/** A person's push settings across workspaces: Do-not-disturb until a time. */
export const pushSettings = pgTable('push_settings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  dndUntil: ts('dnd_until'),
});

/**
 * A member's push level for one channel: every message, mentions only, or nothing. No row: the default
 * (every message in a direct message, mentions elsewhere); the membership's `muted` means nothing.
 */
export const channelPushLevels = pgTable('channel_push_levels', {
  channelMemberId: text('channel_member_id')
    .primaryKey()
    .references(() => channelMembers.id, { onDelete: 'cascade' }),
  level: text('level', { enum: ['all', 'mentions', 'nothing'] }).notNull(),
});

// ───────────────────────── Metrics rollups (server/metrics, decision 0038) ─────────────────────────
// Kept by database triggers in the same transaction as the rows they count, so every writer (post,
// batch, forward, agent answer, delete, reaction, vote, join, leave) keeps them right without knowing.
// Times are 15-minute UTC buckets ("quarters"): every local midnight and hour of every current IANA zone
// (+05:30, +05:45, +08:45 included) falls on one, so local buckets are sums of whole quarters.
// No foreign keys: rows of a deleted workspace or channel are removed by the triggers themselves.

/** Per workspace and quarter: messages posted (not deleted), channels created, members joined. */
export const metricQuarters = pgTable(
  'metric_quarters',
  {
    institutionId: text('institution_id').notNull(),
    quarter: ts('quarter').notNull(),
    messages: integer('messages').notNull().default(0),
    channels: integer('channels').notNull().default(0),
    members: integer('members').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.quarter] })],
);

/** Per channel and quarter: messages posted (not deleted) and members who joined (and are still in). */
export const metricChannelQuarters = pgTable(
  'metric_channel_quarters',
  {
    institutionId: text('institution_id').notNull(),
    channelId: text('channel_id').notNull(),
    quarter: ts('quarter').notNull(),
    messages: integer('messages').notNull().default(0),
    members: integer('members').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.quarter] }),
    index('metric_channel_quarters_institution_idx').on(t.institutionId, t.quarter),
  ],
);

/** Per channel: messages (not deleted) and members now, so "since the start" never sums quarters. */
export const metricChannelTotals = pgTable('metric_channel_totals', {
  channelId: text('channel_id').primaryKey(),
  institutionId: text('institution_id').notNull(),
  messages: integer('messages').notNull().default(0),
  members: integer('members').notNull().default(0),
});

/** Per member and quarter: what they did, for "active members" (posted, reacted or voted, visited). */
export const metricMemberQuarters = pgTable(
  'metric_member_quarters',
  {
    institutionId: text('institution_id').notNull(),
    memberId: text('member_id').notNull(),
    quarter: ts('quarter').notNull(),
    posts: integer('posts').notNull().default(0),
    /** Reactions and poll votes given: only known as they happen, so a rebuild keeps them. */
    reactions: integer('reactions').notNull().default(0),
    visits: integer('visits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.quarter] })],
);

/** Counted visits per target, visitor and quarter (a visit counts once per person and target per 30 min). */
export const metricVisitQuarters = pgTable(
  'metric_visit_quarters',
  {
    institutionId: text('institution_id').notNull(),
    targetType: text('target_type', { enum: ['member', 'channel', 'group'] }).notNull(),
    targetId: text('target_id').notNull(),
    visitorMemberId: text('visitor_member_id').notNull(),
    quarter: ts('quarter').notNull(),
    visits: integer('visits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.institutionId, t.targetType, t.quarter, t.targetId, t.visitorMemberId] })],
);

/** Messages that engaged people (replies, reactions, poll votes), only while not deleted. */
export const metricEngagement = pgTable(
  'metric_engagement',
  {
    messageId: text('message_id').primaryKey(),
    institutionId: text('institution_id').notNull(),
    channelId: text('channel_id').notNull(),
    createdAt: ts('created_at').notNull(),
    replies: integer('replies').notNull().default(0),
    reactions: integer('reactions').notNull().default(0),
    pollVotes: integer('poll_votes').notNull().default(0),
    score: integer('score').notNull().default(0),
  },
  (t) => [
    index('metric_engagement_rank_idx').on(t.institutionId, t.score, t.createdAt),
    index('metric_engagement_created_idx').on(t.institutionId, t.createdAt),
  ],
);
