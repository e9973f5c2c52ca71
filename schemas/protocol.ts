// The wire protocol between client and server: every REST body, query, response and socket payload.
// Both sides parse with these schemas; types are inferred from them so the two cannot drift apart.
import { z } from 'zod';

/**
 * Bump when any schema in this file changes shape (tests/unit/protocol-version.test.ts checks). History:
 * 1 — first protocol: sign-in, workspaces, channels, messages with per-channel change sequence.
 * 2 — channel roles and permissions, membership, requests, sections, groups, member roles, visits.
 * 3 — message actions (reactions, pins, stars, polls, forward), search, activities, files.
 * 4 — agents, knowledge sources, MCP connections, agent answers (tool calls, citations), usage and audit.
 * 5 — refresh {value: 'channelMembers', channelId}: a channel's member list changed.
 * 6 — security limits: channelRequest.channelName is null for a requester who is not a member of the channel; agent limits: the allowed `models` with the agent list, `serverDailyTokenCap` with usage and settings; input bounds: length checks stop before patterns, linear channel-name pattern, `page` at most 100 000; upload signing names the workspace (institutionId), whose upload cap the bytes count against; sessions: DELETE /api/users/sessions/:sessionId and POST /api/users/sessions/revoke-others.
 */
export const PROTOCOL_VERSION = 6;

// ───────────────────────────── limits ─────────────────────────────
export const MESSAGE_PAGE_SIZE = 30;
export const MESSAGE_PAGE_MAX = 100;
export const CHANGES_PAGE_MAX = 500;
/** Longest message HTML accepted (after sanitising the server stores at most this). */
export const MESSAGE_CONTENT_MAX = 40_000;
export const NAME_MAX = 80;
export const OTP_LENGTH = 6;
/** Highest page number a paged list accepts: far beyond any real list, and keeps OFFSET a safe integer. */
export const PAGE_NUMBER_MAX = 100_000;
const PAGE_NUMBER_TOO_BIG = `Pages are numbered up to ${PAGE_NUMBER_MAX}`;

// ───────────────────────────── primitives ─────────────────────────────
export const id = z.string().min(1).max(64);
/** Client-generated UUID (v7 by convention, so it sorts by creation time). */
export const genId = z.string().max(36, { abort: true }).uuid();
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z
      .string()
      .max(254, { abort: true, message: 'An e-mail address has at most 254 characters' })
      .email('Enter a valid e-mail address'),
  );
export const isoDate = z.string();

export const workspaceRole = z.enum(['primary_owner', 'owner', 'admin', 'member', 'guest']);
export type WorkspaceRole = z.infer<typeof workspaceRole>;
export const channelType = z.enum(['public', 'private', 'direct_message']);
export type ChannelType = z.infer<typeof channelType>;

// ───────────────────────────── entities on the wire ─────────────────────────────
export const user = z.object({
  id,
  email: z.string(),
  name: z.string(),
  profileImage: z.string().nullable(),
  isOnline: z.boolean().optional(),
});
export type User = z.infer<typeof user>;

export const institution = z.object({ id, name: z.string(), createdAt: isoDate });
export type Institution = z.infer<typeof institution>;

export const member = z.object({
  id,
  institutionId: id,
  role: workspaceRole,
  /** Name and picture come from the member's user. */
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  user: z.object({ id, isOnline: z.boolean() }),
  createdAt: isoDate,
  /** 'agent': an AI agent (GET .../agents has its settings); its messages are marked as AI. */
  kind: z.enum(['user', 'agent']).default('user'),
});
export type Member = z.infer<typeof member>;

export const institutionWithMember = institution.extend({ member });
export type InstitutionWithMember = z.infer<typeof institutionWithMember>;

export const invitation = z.object({
  id,
  institutionId: id,
  email: z.string(),
  createdAt: isoDate,
});
export type Invitation = z.infer<typeof invitation>;
export const invitationWithInstitution = invitation.extend({ institution });
export type InvitationWithInstitution = z.infer<typeof invitationWithInstitution>;

export const channelRole = z.object({
  id,
  channelId: id,
  name: z.string(),
  isDefault: z.boolean(),
  isOwnershipRole: z.boolean(),
  canPinMessage: z.boolean(),
  canPost: z.boolean(),
  canTag: z.boolean(),
  canAddMembers: z.boolean(),
  canDeleteMessage: z.boolean(),
});
export type ChannelRole = z.infer<typeof channelRole>;

export const channel = z.object({
  id,
  institutionId: id,
  name: z.string(),
  type: channelType,
  isDefault: z.boolean(),
  defaultRole: channelRole.nullable(),
  /** For direct messages: the two member ids, so the client can show the other person. */
  directMessageMembers: z.array(id).nullable(),
  createdBy: id.nullable(),
  createdAt: isoDate,
  /** Highest change sequence of this channel's messages (see message.seq). */
  lastSeq: z.number().int().nonnegative(),
  lastSentMessage: z.object({ id, createdAt: isoDate }).nullable(),
});
export type Channel = z.infer<typeof channel>;

export const channelMember = z.object({
  id,
  channelId: id,
  memberId: id,
  unreadCount: z.number().int().nonnegative(),
  lastReadMessage: id.nullable(),
  roles: z.array(id),
  joinedAt: isoDate,
  /** The member's own settings for this channel (PUT channels/{channelId}/members). */
  muted: z.boolean().optional(),
  /** Direct messages: this member blocked the other person, who can no longer post here. */
  blocked: z.boolean().optional(),
  /** Shown on this member's profile (PUT channels/profile-channels). */
  showOnProfile: z.boolean().optional(),
});
export type ChannelMember = z.infer<typeof channelMember>;

export const mention = z.object({
  type: z.enum(['member', 'role', 'agent', 'group', 'everyone', 'here']),
  id,
});
export type Mention = z.infer<typeof mention>;

export const attachment = z.object({
  id,
  fileName: z.string().max(255),
  fileType: z.string().max(255),
  fileSize: z.number().int().nonnegative(),
  url: z.string().max(2048).nullable(),
  isUploading: z.boolean().optional(),
});
export type Attachment = z.infer<typeof attachment>;

export const REACTION_EMOJI_MAX = 64;
export const POLL_QUESTION_MAX = 300;
export const POLL_OPTION_MAX = 200;
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 10;
export const FORWARD_TARGETS_MAX = 10;
export const ACTIVITY_PAGE_SIZE = 20;

/** One emoji on a message: who reacted with it, in the order they did. */
export const reaction = z.object({
  emoji: z.string(),
  count: z.number().int().nonnegative(),
  memberIds: z.array(id),
});
export type Reaction = z.infer<typeof reaction>;
export const pollOption = z.object({
  text: z.string(),
  votes: z.number().int().nonnegative(),
  memberIds: z.array(id),
});
export type PollOption = z.infer<typeof pollOption>;
/** A poll is a message with empty content and this field; results are live (every vote changes the message). */
export const poll = z.object({
  question: z.string(),
  options: z.array(pollOption),
  multiple: z.boolean(),
  closedAt: isoDate.nullable(),
});
export type Poll = z.infer<typeof poll>;
export const forwardedFrom = z.object({ messageId: id, channelId: id });
export type ForwardedFrom = z.infer<typeof forwardedFrom>;

/** Longest tool-call arguments or result text kept on an answer (the rest is cut, marked with …). */
export const TOOL_CALL_TEXT_MAX = 4_000;
/**
 * One tool call of an agent's run, shown as a card under the answer. `awaiting_approval`: the tool is
 * destructive (or the agent asks before every tool) and waits for the asking member's decision.
 */
export const agentToolCallStatus = z.enum([
  'running',
  'awaiting_approval',
  'rejected',
  'succeeded',
  'failed',
]);
export type AgentToolCallStatus = z.infer<typeof agentToolCallStatus>;
export const agentToolCall = z.object({
  id: z.string(),
  name: z.string(),
  /** The MCP connection that offers the tool. */
  connectionName: z.string(),
  /** JSON text of the arguments, as the model (or the tool command) gave them. */
  arguments: z.string(),
  /** The tool's text result or error; null until it has run. */
  result: z.string().nullable(),
  status: agentToolCallStatus,
  destructive: z.boolean(),
});
export type AgentToolCall = z.infer<typeof agentToolCall>;
/** A passage an answer used; the answer's text refers to it as [index]. */
export const agentCitation = z.object({
  index: z.number().int().positive(),
  sourceId: id,
  title: z.string(),
  passage: z.string(),
});
export type AgentCitation = z.infer<typeof agentCitation>;
/** thinking: nothing written yet; streaming: text is arriving; done/failed: final. */
export const agentAnswerStatus = z.enum(['thinking', 'streaming', 'awaiting_approval', 'done', 'failed']);
export type AgentAnswerStatus = z.infer<typeof agentAnswerStatus>;
/** Set on an agent's answer message: the run's state, its tool calls and the passages it cites. */
export const agentAnswer = z.object({
  runId: id,
  status: agentAnswerStatus,
  /** The member who asked: the only one who may approve or reject its tool calls. */
  askerMemberId: id,
  toolCalls: z.array(agentToolCall),
  citations: z.array(agentCitation),
});
export type AgentAnswer = z.infer<typeof agentAnswer>;

/**
 * A message as the server stores it. `seq` is the channel's change sequence at the message's latest
 * change (create, edit, delete): every change bumps the channel's sequence by exactly one, so a client
 * that sees seq jump by more than one knows it missed something. `createdSeq` is the sequence at
 * creation and never changes: it is the message's position in the channel.
 */
export const message = z.object({
  id,
  genId,
  channelId: id,
  institutionId: id,
  memberId: id,
  content: z.string(),
  replyTo: id.nullable(),
  attachments: z.array(attachment),
  mentions: z.array(mention),
  createdAt: isoDate,
  editedAt: isoDate.nullable(),
  /** Set on tombstones: content is emptied and the row stays so that catch-up can tell clients. */
  deletedAt: isoDate.nullable(),
  seq: z.number().int().positive(),
  createdSeq: z.number().int().positive(),
  /** Shared state changed by message actions; each change bumps seq like an edit. Stars are private: not here. */
  reactions: z.array(reaction).default([]),
  isPinned: z.boolean().default(false),
  poll: poll.nullable().default(null),
  forwardedFrom: forwardedFrom.nullable().default(null),
  /** Only on an agent's answer. */
  agentAnswer: agentAnswer.nullable().default(null),
});
export type Message = z.infer<typeof message>;
/** The starrer's view: acks of toggleStarredMessage. */
export const starredMessage = message.extend({ isStarred: z.boolean() });
export type StarredMessage = z.infer<typeof starredMessage>;

// ───────────────────────────── REST: auth and users ─────────────────────────────
export const signinOtpQuery = z.object({ email });
export const signinBody = z.object({
  email,
  code: z
    .string()
    .max(OTP_LENGTH, { abort: true, message: 'The code is 6 digits' })
    .regex(/^\d{6}$/, 'The code is 6 digits'),
});
export const signinResponse = z.object({ accessToken: z.string(), user });
export type SigninResponse = z.infer<typeof signinResponse>;
/** One signed-in device of the caller (GET /api/users/sessions). */
export const userSession = z.object({
  id,
  userAgent: z.string().nullable(),
  createdAt: isoDate,
  lastUsedAt: isoDate,
  /** True for the session making the request. */
  current: z.boolean(),
});
export type UserSession = z.infer<typeof userSession>;
export const userSessionsResponse = z.object({ data: z.array(userSession) });
/** DELETE /api/users/sessions/:sessionId signs out one of the caller's devices. */
export const sessionIdParams = z.object({ sessionId: z.string().max(64, 'Not a session id') });
/** POST /api/users/sessions/revoke-others: how many other devices were signed out. */
export const revokeOtherSessionsResponse = z.object({ revoked: z.number().int() });
export type RevokeOtherSessionsResponse = z.infer<typeof revokeOtherSessionsResponse>;
export const updateUserBody = z
  .object({
    name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX).optional(),
    profileImage: z.string().max(2048).nullable().optional(),
  })
  .refine((b) => b.name !== undefined || b.profileImage !== undefined, 'Nothing to update');

// ───────────────────────────── REST: institutions ─────────────────────────────
export const institutionBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
});
export const createInstitutionResponse = z.object({ institution, member });
export const emailsBody = z.object({ emails: z.array(email).min(1).max(100) });

// ───────────────────────────── REST: channels ─────────────────────────────
export const channelName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'Name cannot be empty')
  .max(NAME_MAX, { abort: true, message: `A channel name has at most ${NAME_MAX} characters` })
  // trim() has already removed spaces at both ends, so the pattern only names the allowed characters: one
  // class, one pass (the former `[…]+(?:[ …]*[…])?` backtracked quadratically on a long mismatch).
  .regex(/^[ \p{L}\p{N}_-]+$/u, 'Use letters, numbers, spaces, - and _');
export const createChannelBody = z.object({
  name: channelName,
  type: z.enum(['public', 'private']).default('public'),
});
export const updateChannelBody = z.object({ name: channelName });
export const directMessageBody = z.object({ directMessageMemberId: id });
export const joinedChannelsResponse = z.object({
  channels: z.array(channel),
  channelMembers: z.array(channelMember),
  /** Every role of the joined channels, so permissions can be evaluated on the device (offline too). */
  channelRoles: z.array(channelRole).optional(),
});
export type JoinedChannels = z.infer<typeof joinedChannelsResponse>;
export const channelWithMembership = z.object({ channel, channelMember });

// ───────────────────────────── REST: channel roles, membership and requests ─────────────────────────────
export const CHANNEL_ROLE_NAME_MAX = 40;
export const CHANNEL_REQUEST_REASON_MAX = 500;
/** Most members named in one add/remove/role-members call. */
export const CHANNEL_MEMBERS_PER_CALL_MAX = 500;
const roleName = z.string().trim().min(1, 'Name cannot be empty').max(CHANNEL_ROLE_NAME_MAX);
export const channelRolesResponse = z.object({ data: z.array(channelRole) });
export const channelRoleResponse = z.object({ role: channelRole });
/** A new (never default, never ownership) role; flags left out are false. */
export const createChannelRoleBody = z.object({
  name: roleName,
  canPinMessage: z.boolean().default(false),
  canPost: z.boolean().default(false),
  canTag: z.boolean().default(false),
  canAddMembers: z.boolean().default(false),
  canDeleteMessage: z.boolean().default(false),
});
export type CreateChannelRoleBody = z.input<typeof createChannelRoleBody>;
/** Rename a role or change its flags; the default role is edited the same way (by its id). */
export const updateChannelRoleBody = z
  .object({
    name: roleName.optional(),
    canPinMessage: z.boolean().optional(),
    canPost: z.boolean().optional(),
    canTag: z.boolean().optional(),
    canAddMembers: z.boolean().optional(),
    canDeleteMessage: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to update');
export type UpdateChannelRoleBody = z.input<typeof updateChannelRoleBody>;
/** Exactly which channel members (workspace member ids) hold the role afterwards; may be empty. */
export const roleMembersBody = z.object({ members: z.array(id).max(CHANNEL_MEMBERS_PER_CALL_MAX) });
/** Workspace member ids to add to or remove from a channel. */
export const channelMembersBody = z.object({
  members: z.array(id).min(1, 'Name at least one member').max(CHANNEL_MEMBERS_PER_CALL_MAX),
});
export type ChannelMembersBody = z.infer<typeof channelMembersBody>;
/** The workspace member id of the new owner; they must be in the channel. */
export const transferOwnershipBody = z.object({ member: id });
export const channelMembersQuery = z.object({ role: id.optional() });
/** One person in a channel: their membership (with role ids) and their workspace member record. */
export const channelMemberEntry = z.object({ channelMember, member });
export type ChannelMemberEntry = z.infer<typeof channelMemberEntry>;
export const channelMembersResponse = z.object({ data: z.array(channelMemberEntry) });
/** The caller's own settings for a channel. */
export const updateMembershipBody = z
  .object({ muted: z.boolean().optional() })
  .refine((b) => b.muted !== undefined, 'Nothing to update');
export type UpdateMembershipBody = z.infer<typeof updateMembershipBody>;
export const channelMemberResponse = z.object({ channelMember });
/** Channel ids to show on the caller's profile (replaces the previous choice; channels they are in). */
export const profileChannelsBody = z.object({ channels: z.array(id).max(50) });
export const profileChannelsResponse = z.object({ channels: z.array(id) });

export const channelRequestStatus = z.enum(['pending', 'approved', 'rejected']);
export type ChannelRequestStatus = z.infer<typeof channelRequestStatus>;
export const channelRequest = z.object({
  id,
  institutionId: id,
  channelId: id,
  /**
   * The channel's name for its members (managers listing requests, a requester once approved); null for
   * a requester who is not a member, since a private channel's name is not theirs to read.
   */
  channelName: z.string().nullable(),
  /** The workspace member asking to join. */
  memberId: id,
  reason: z.string(),
  status: channelRequestStatus,
  createdAt: isoDate,
  decidedAt: isoDate.nullable(),
  decidedBy: id.nullable(),
});
export type ChannelRequest = z.infer<typeof channelRequest>;
export const createChannelRequestBody = z.object({
  reason: z.string().trim().min(1, 'Give a reason').max(CHANNEL_REQUEST_REASON_MAX),
});
export const updateChannelRequestBody = z.object({ status: channelRequestStatus });
export const channelRequestsQuery = z.object({ status: channelRequestStatus.optional() });
export const channelRequestsResponse = z.object({ data: z.array(channelRequest) });
export const channelRequestResponse = z.object({ request: channelRequest });

// ───────────────────────────── REST: messages ─────────────────────────────
export const messagePageQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_MAX).default(MESSAGE_PAGE_SIZE),
});
export const messagePage = z.object({
  data: z.array(message),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type MessagePage = z.infer<typeof messagePage>;

/** Catch-up: every message whose latest change is after `after`, oldest change first. */
export const changesQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(CHANGES_PAGE_MAX).default(200),
});
export const changesResponse = z.object({
  data: z.array(message),
  /** lastSeq: the highest seq in data (or `after` when empty); hasMore: call again after lastSeq. */
  metadata: z.object({ lastSeq: z.number(), hasMore: z.boolean() }),
});
export type ChangesResponse = z.infer<typeof changesResponse>;

/** Which of these genIds does the server already hold? Used to settle pending messages after a reconnect. */
export const knownGenIdsBody = z.object({ genIds: z.array(genId).min(1).max(500) });
export const knownGenIdsResponse = z.object({ data: z.array(message) });

const messageFields = {
  content: z.string().max(MESSAGE_CONTENT_MAX),
  replyTo: id.nullable().optional(),
  attachments: z.array(attachment).max(20).optional(),
  mentions: z.array(mention).max(100).optional(),
  genId,
};
export const postMessageRestBody = z.object(messageFields);

/** Pinned and starred side panels (starred: the caller's own stars in that channel). Newest first. */
export const messageListQuery = messagePageQuery;
export const messageListItem = z.object({ message });
export const messageListResponse = z.object({
  data: z.array(messageListItem),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type MessageListResponse = z.infer<typeof messageListResponse>;

// ───────────────────────────── REST: activity feed ─────────────────────────────
/** mention: of me, a role or group I hold, @everyone/@here; reply: to my message; reaction: on my message. */
export const activityType = z.enum(['mention', 'reply', 'reaction']);
export type ActivityType = z.infer<typeof activityType>;
export const activity = z.object({
  id,
  type: activityType,
  message,
  actorMemberId: id,
  /** The emoji of a reaction activity; null for the others. */
  emoji: z.string().nullable(),
  createdAt: isoDate,
  read: z.boolean(),
});
export type Activity = z.infer<typeof activity>;
export const activitiesQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_MAX).default(ACTIVITY_PAGE_SIZE),
});
export const activitiesResponse = z.object({
  data: z.array(activity),
  metadata: z.object({
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    hasMore: z.boolean(),
    unread: z.number(),
  }),
});
export type ActivitiesResponse = z.infer<typeof activitiesResponse>;
/** Either these ids or all of the caller's activities in the workspace. */
export const markActivitiesReadBody = z
  .object({ ids: z.array(id).min(1).max(500).optional(), all: z.literal(true).optional() })
  .refine((b) => (b.ids ? !b.all : b.all), 'Give either ids or all');
export type MarkActivitiesReadBody = z.infer<typeof markActivitiesReadBody>;
export const markActivitiesReadResponse = z.object({ unread: z.number() });

// ───────────────────────────── REST: sections (each member arranges their own sidebar) ─────────────────────────────
export const SECTION_NAME_MAX = 40;
export const SECTIONS_MAX = 50;
export const section = z.object({
  id,
  name: z.string(),
  /** Channel ids in display order. The default section also shows every joined channel in no section. */
  channels: z.array(id),
  position: z.number().int().nonnegative(),
  isDefault: z.boolean(),
});
export type Section = z.infer<typeof section>;
export const sectionsResponse = z.object({ data: z.array(section) });
/** Every section call answers with the caller's whole layout (a move changes two sections); POST adds the new one. */
export const sectionCreatedResponse = sectionsResponse.extend({ section });
const sectionName = z.string().trim().min(1, 'Name cannot be empty').max(SECTION_NAME_MAX);
const sectionChannels = z.array(id).max(1000);
/** `id` lets an offline client create a section under its own id and replay the call without a duplicate. */
export const createSectionBody = z.object({
  id: genId.optional(),
  name: sectionName,
  channels: sectionChannels.optional(),
});
export type CreateSectionBody = z.infer<typeof createSectionBody>;
export const updateSectionBody = z
  .object({ name: sectionName.optional(), channels: sectionChannels.optional() })
  .refine((b) => b.name !== undefined || b.channels !== undefined, 'Nothing to update');
export type UpdateSectionBody = z.infer<typeof updateSectionBody>;
/** Bulk replace of the caller's layout (an offline client replays its last known arrangement). */
export const replaceSectionsBody = z.object({
  sections: z.array(z.object({ id, channels: sectionChannels })).max(SECTIONS_MAX),
});
export type ReplaceSectionsBody = z.infer<typeof replaceSectionsBody>;
export const reorderSectionsBody = z.object({ sectionIds: z.array(id).min(1).max(SECTIONS_MAX) });
export type ReorderSectionsBody = z.infer<typeof reorderSectionsBody>;

// ───────────────────────────── REST: groups ─────────────────────────────
export const group = z.object({
  id,
  institutionId: id,
  name: z.string(),
  createdBy: id.nullable(),
  /** Workspace member ids. */
  memberIds: z.array(id),
  createdAt: isoDate,
});
export type Group = z.infer<typeof group>;
export const groupsResponse = z.object({ data: z.array(group) });
export const groupResponse = z.object({ group });
export const groupBody = z.object({ name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX) });
export const groupEmailsBody = z.object({
  emails: z.array(email).min(1).max(100),
  action: z.enum(['add', 'remove']),
});
export type GroupEmailsBody = z.infer<typeof groupEmailsBody>;
/** The group after the change, and the e-mails that belong to no member of the workspace. */
export const groupEmailsResponse = z.object({ group, unknownEmails: z.array(z.string()) });
export type GroupEmailsResponse = z.infer<typeof groupEmailsResponse>;

// ───────────────────────────── REST: workspace members ─────────────────────────────
export const updateMemberBody = z.object({ role: workspaceRole });
export type UpdateMemberBody = z.infer<typeof updateMemberBody>;
export const bulkUpdateMembersBody = z.object({
  memberIds: z.array(id).min(1).max(500),
  update: updateMemberBody,
});
export type BulkUpdateMembersBody = z.infer<typeof bulkUpdateMembersBody>;
export const memberResponse = z.object({ member });
export const bulkUpdateMembersResponse = z.object({ data: z.array(member) });
/** A channel someone chose to show on their profile. */
export const profileChannel = z.object({ id, name: z.string(), type: channelType });
export type ProfileChannel = z.infer<typeof profileChannel>;
export const memberProfile = z.object({ member, channels: z.array(profileChannel) });
export type MemberProfile = z.infer<typeof memberProfile>;

// ───────────────────────────── REST: message search ─────────────────────────────
export const SEARCH_PAGE_SIZE = 10;
export const SEARCH_PAGE_MAX = 50;
export const SEARCH_QUERY_MAX = 200;
export const messageSearchQuery = z.object({
  search: z
    .string()
    .trim()
    .min(1, 'Type something to search for')
    .max(SEARCH_QUERY_MAX, `Search for at most ${SEARCH_QUERY_MAX} characters`),
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_SIZE),
});
/** One hit: the message and an HTML-escaped excerpt of its text with the matched words inside <mark>. */
export const messageSearchHit = z.object({ message, highlight: z.string() });
export type MessageSearchHit = z.infer<typeof messageSearchHit>;
export const messageSearchResponse = z.object({
  data: z.array(messageSearchHit),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type MessageSearchResponse = z.infer<typeof messageSearchResponse>;

// ───────────────────────────── REST: files ─────────────────────────────
export const FILE_NAME_MAX = 255;
export const FILES_PAGE_SIZE = 30;
export const FILES_PER_DELETE_MAX = 100;
/**
 * Ask for somewhere to PUT a file's bytes. `size` is the exact byte count that will be sent; the bytes count
 * against the caller's and this workspace's upload caps (413 past either).
 */
export const fileSignQuery = z.object({
  institutionId: id,
  size: z.coerce.number().int().min(0),
  fileName: z.string().max(FILE_NAME_MAX).optional(),
  fileType: z.string().max(255).optional(),
});
/**
 * `uploadUrl` takes one PUT of exactly `size` bytes with the file's content type before `expiresAt`:
 * the server's own store (relative address) or a presigned S3 address. `fileKey` then goes into POST /api/files.
 */
export const fileSignResponse = z.object({
  signature: z.string(),
  fileKey: z.string(),
  uploadUrl: z.string(),
  expiresAt: isoDate,
});
export type FileSignResponse = z.infer<typeof fileSignResponse>;
export const fileMeta = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
/**
 * Register a file posted in a channel. Own uploads give `fileKey` (from the sign call); third-party files
 * (isFromThirdParty, e.g. a GIF service) give `fileUrl` instead. A client-chosen `id` makes a retried
 * registration return the same file.
 */
export const registerFileBody = z
  .object({
    id: genId.optional(),
    institutionId: id,
    channelId: id,
    fileName: z.string().trim().min(1, 'A file needs a name').max(FILE_NAME_MAX),
    fileType: z.string().max(255),
    fileSize: z.number().int().nonnegative(),
    isFromThirdParty: z.boolean().default(false),
    meta: fileMeta.optional(),
    fileKey: z.string().max(200).optional(),
    fileUrl: z.string().max(2048, { abort: true }).url().optional(),
  })
  .refine((b) => (b.isFromThirdParty ? !!b.fileUrl : !!b.fileKey), {
    message: 'Give fileKey for an uploaded file, or fileUrl for a third-party one',
  });
export const fileEntity = z.object({
  id,
  institutionId: id,
  channelId: id,
  memberId: id,
  fileName: z.string(),
  fileType: z.string(),
  fileSize: z.number().int().nonnegative(),
  /** Where to GET the bytes: /api/files/{id}/content with the bearer token, or the third-party address. */
  url: z.string(),
  isUploading: z.boolean(),
  uploadFailed: z.boolean(),
  isFromThirdParty: z.boolean(),
  meta: fileMeta,
  createdAt: isoDate,
});
export type FileEntity = z.infer<typeof fileEntity>;
export const fileResponse = z.object({ file: fileEntity });
export const updateFileBody = z
  .object({ isUploading: z.boolean().optional(), uploadFailed: z.boolean().optional() })
  .refine((b) => b.isUploading !== undefined || b.uploadFailed !== undefined, {
    message: 'Give isUploading or uploadFailed',
  });
export const deleteFilesBody = z.object({ fileIds: z.array(id).min(1).max(FILES_PER_DELETE_MAX) });
export const deleteFilesResponse = z.object({ fileIds: z.array(id) });
export const filesQuery = z.object({
  channelId: id.optional(),
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(FILES_PAGE_SIZE),
  search: z.string().trim().max(SEARCH_QUERY_MAX).optional(),
});
export const filesResponse = z.object({
  data: z.array(fileEntity),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type FilesResponse = z.infer<typeof filesResponse>;

// ───────────────────────────── REST: MCP connections (agents' tools) ─────────────────────────────
/** Value the server returns in place of every stored environment variable: names only, never values. */
export const MASKED_VALUE = '••••';
const envName = z
  .string()
  .max(128, { abort: true })
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'Variable names use letters, digits and _ and do not start with a digit',
  );
/** Names to values; on update a value equal to MASKED_VALUE keeps the stored one. */
export const mcpEnvironmentVariables = z.record(envName, z.string().max(8_000)).default({});
export const mcpTransport = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    command: z.string().trim().min(1, 'Enter a command').max(1_000),
    args: z.array(z.string().max(2_000)).max(64).default([]),
  }),
  z.object({
    type: z.literal('http'),
    url: z
      .string()
      .trim()
      .max(2048, { abort: true })
      .url('Enter a valid URL')
      .refine((u) => /^https?:/i.test(u), 'Use an http(s) URL'),
    headers: z.record(z.string().min(1).max(256), z.string().max(8_000)).default({}),
  }),
]);
export type McpTransport = z.infer<typeof mcpTransport>;
export const mcpConnectionBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
  transport: mcpTransport,
  environmentVariables: mcpEnvironmentVariables,
});
export type McpConnectionBody = z.input<typeof mcpConnectionBody>;
export const mcpConnectBody = z.object({
  transport: mcpTransport,
  environmentVariables: mcpEnvironmentVariables,
  /** A saved connection whose stored variables fill in the masked (or missing) ones. */
  id: id.optional(),
});
export const mcpConnection = z.object({
  id,
  agentId: id,
  name: z.string(),
  transport: mcpTransport,
  /** Every stored variable by name, each value MASKED_VALUE. */
  environmentVariables: z.record(z.string(), z.literal(MASKED_VALUE)),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type McpConnection = z.infer<typeof mcpConnection>;
export const mcpTool = z.object({ name: z.string(), description: z.string().optional() });
export type McpTool = z.infer<typeof mcpTool>;
export const mcpConnectResponse = z.union([
  z.object({ tools: z.array(mcpTool) }),
  z.object({ error: z.string() }),
]);
export type McpConnectResponse = z.infer<typeof mcpConnectResponse>;
export const mcpTemplateVariable = z.object({
  name: z.string(),
  description: z.string(),
  required: z.boolean(),
});
export const mcpTemplate = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** A starting point for the form (empty command or URL for the custom ones); `{folder}`-style
   * placeholders in args name what the person chooses. */
  transport: z.discriminatedUnion('type', [
    z.object({ type: z.literal('stdio'), command: z.string(), args: z.array(z.string()) }),
    z.object({ type: z.literal('http'), url: z.string(), headers: z.record(z.string(), z.string()) }),
  ]),
  variables: z.array(mcpTemplateVariable),
  /** Not shipped with Lantern: the operator must install it (and allow its command) first. */
  needsInstallation: z.boolean(),
  /** Whether this server's command may be started under the operator's MCP_STDIO_ALLOWLIST. */
  allowed: z.boolean(),
});
export type McpTemplate = z.infer<typeof mcpTemplate>;

// ───────────────────────────── REST: agents and their knowledge ─────────────────────────────
/** Longest text of one knowledge source (after extraction) and most sources per agent. */
export const KNOWLEDGE_SOURCE_MAX_CHARS = 500_000;
export const KNOWLEDGE_SOURCES_PER_AGENT = 50;
export const AGENT_INSTRUCTIONS_MAX = 10_000;
export const agentInvokableBy = z.enum(['everyone', 'channel_owners', 'nobody']);
export type AgentInvokableBy = z.infer<typeof agentInvokableBy>;
/** An agent; its id is its workspace member id (mentions of type 'agent' carry it). */
export const agent = z.object({
  id,
  institutionId: id,
  name: z.string(),
  profileImage: z.string().nullable(),
  instructions: z.string(),
  model: z.string().nullable(),
  invokableBy: agentInvokableBy,
  maxToolSteps: z.number().int(),
  /** Every tool call waits for the asker's approval, not only the ones their server marks destructive. */
  approveAllTools: z.boolean(),
  createdAt: isoDate,
});
export type Agent = z.infer<typeof agent>;
export const createAgentBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX),
  profileImage: z.string().max(2048).nullable().optional(),
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX).default(''),
  model: z.string().trim().min(1).max(200).nullable().optional(),
  invokableBy: agentInvokableBy.default('everyone'),
  maxToolSteps: z.number().int().min(1).max(50).default(8),
  approveAllTools: z.boolean().default(false),
});
export const updateAgentBody = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(NAME_MAX).optional(),
  profileImage: z.string().max(2048).nullable().optional(),
  instructions: z.string().max(AGENT_INSTRUCTIONS_MAX).optional(),
  model: z.string().trim().min(1).max(200).nullable().optional(),
  invokableBy: agentInvokableBy.optional(),
  maxToolSteps: z.number().int().min(1).max(50).optional(),
  approveAllTools: z.boolean().optional(),
});
export const agentsResponse = z.object({
  agents: z.array(agent),
  /** The model agents use unless they override it ("provider:model"); null: none configured. */
  defaultModel: z.string().nullable(),
  /** The models an agent may name ("provider:model", the operator's AGENT_MODELS), the default first. */
  models: z.array(z.string()),
});
export const knowledgeSourceStatus = z.enum(['processing', 'ready', 'failed']);
export const knowledgeSource = z.object({
  id,
  agentId: id,
  type: z.enum(['text', 'file', 'url']),
  title: z.string(),
  status: knowledgeSourceStatus,
  /** Why ingestion failed (status 'failed'). */
  error: z.string().nullable(),
  /** Characters of extracted text. */
  size: z.number().int(),
  chunkCount: z.number().int(),
  createdAt: isoDate,
});
export type KnowledgeSource = z.infer<typeof knowledgeSource>;
export const createKnowledgeSourceBody = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    title: z.string().trim().min(1, 'Title cannot be empty').max(200),
    text: z.string().min(1, 'Text cannot be empty'),
  }),
  /** A file uploaded through the files feature (POST /api/files); its bytes are read by the server. */
  z.object({ type: z.literal('file'), fileId: id, title: z.string().trim().min(1).max(200).optional() }),
  z.object({
    type: z.literal('url'),
    url: z.string().max(2048, { abort: true }).url(),
    title: z.string().max(200).optional(),
  }),
]);
export const knowledgeSourcesResponse = z.object({ knowledgeSources: z.array(knowledgeSource) });
/**
 * POST .../knowledge-sources/upload?fileName=…: the document's bytes as the request body (its type in
 * Content-Type), read into a source without being kept as a file.
 */
export const uploadKnowledgeSourceQuery = z.object({
  fileName: z.string().trim().min(1, 'Name the file').max(255),
  title: z.string().trim().min(1).max(200).optional(),
});

/** POST .../messages/{messageId}/tool-calls/{toolCallId}/decision: the asker approves or rejects a call. */
export const toolCallDecisionBody = z.object({ approve: z.boolean() });

// ───────────────────────────── REST: agent usage and audit ─────────────────────────────
export const agentRunOutcome = z.enum(['succeeded', 'failed', 'stopped', 'refused']);
export type AgentRunOutcome = z.infer<typeof agentRunOutcome>;
/** One run as audited: who asked which agent where, with what model, tokens and tools, and how it ended. */
export const agentRun = z.object({
  id,
  agentId: id,
  askerMemberId: id,
  channelId: id,
  answerMessageId: id.nullable(),
  model: z.string().nullable(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  toolCalls: z.array(z.string()),
  durationMs: z.number().int().nonnegative(),
  outcome: agentRunOutcome,
  /** Why it failed, stopped or was refused. */
  error: z.string().nullable(),
  createdAt: isoDate,
});
export type AgentRun = z.infer<typeof agentRun>;
export const agentRunsQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export const agentRunsResponse = z.object({ runs: z.array(agentRun) });
export const agentUsageQuery = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });
export const agentUsageRow = z.object({
  agentId: id,
  name: z.string(),
  runs: z.number().int().nonnegative(),
  failedRuns: z.number().int().nonnegative(),
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  lastRunAt: isoDate.nullable(),
});
export type AgentUsageRow = z.infer<typeof agentUsageRow>;
export const agentUsageResponse = z.object({
  since: isoDate,
  rows: z.array(agentUsageRow),
  /** Tokens (in + out) used by the workspace's runs since midnight UTC. */
  tokensToday: z.number().int().nonnegative(),
  dailyTokenCap: z.number().int().positive().nullable(),
  /** The operator's ceiling for every workspace (AGENT_DAILY_TOKEN_CAP); null: none. */
  serverDailyTokenCap: z.number().int().positive().nullable(),
});
export type AgentUsageResponse = z.infer<typeof agentUsageResponse>;
/** PUT /api/institutions/{id}/agent-settings (admins): null removes the cap. */
export const agentSettingsBody = z.object({
  dailyTokenCap: z.number().int().positive().max(1_000_000_000_000).nullable(),
});
export const agentSettingsResponse = agentSettingsBody.extend({
  /** The operator's ceiling (AGENT_DAILY_TOKEN_CAP): the workspace's cap may not exceed it; null: none. */
  serverDailyTokenCap: z.number().int().positive().nullable(),
});

// ───────────────────────────── socket ─────────────────────────────
export const channelRef = z.object({ institutionId: id, channelId: id });
export const joinChannelPayload = channelRef;
export const postMessagePayload = channelRef.extend(messageFields);
export type PostMessagePayload = z.infer<typeof postMessagePayload>;
export const editMessagePayload = channelRef.extend({
  messageId: id,
  content: z.string().max(MESSAGE_CONTENT_MAX),
  mentions: z.array(mention).max(100).optional(),
});
export type EditMessagePayload = z.infer<typeof editMessagePayload>;
export const deleteMessagePayload = channelRef.extend({ messageId: id });
export type DeleteMessagePayload = z.infer<typeof deleteMessagePayload>;
export const resetUnreadCountPayload = channelRef;

/**
 * Message actions. Each carries the client's idempotency key `opId`: the server applies an op once and
 * answers a repeat with the current message, changing and broadcasting nothing. Toggles may state the
 * wanted end state (pinned, reacted, starred) so a replay can never undo itself; without it the server
 * flips, and remembers the result under the opId.
 */
export const opId = z.string().max(36, { abort: true }).uuid();
const messageOp = channelRef.extend({ messageId: id, opId });
export const togglePinMessagePayload = messageOp.extend({ pinned: z.boolean().optional() });
export type TogglePinMessagePayload = z.input<typeof togglePinMessagePayload>;
export const toggleReactionPayload = messageOp.extend({
  emoji: z.string().trim().min(1, 'Emoji cannot be empty').max(REACTION_EMOJI_MAX),
  reacted: z.boolean().optional(),
});
export type ToggleReactionPayload = z.input<typeof toggleReactionPayload>;
export const toggleStarredMessagePayload = messageOp.extend({ starred: z.boolean().optional() });
export type ToggleStarredMessagePayload = z.input<typeof toggleStarredMessagePayload>;
/** A poll is a new message: genId is its id like postMessage's (the message exists once per genId). */
export const createPollPayload = channelRef.extend({
  opId,
  genId,
  question: z.string().trim().min(1, 'Question cannot be empty').max(POLL_QUESTION_MAX),
  options: z
    .array(z.string().trim().min(1, 'Option cannot be empty').max(POLL_OPTION_MAX))
    .min(POLL_OPTIONS_MIN, 'A poll needs at least 2 options')
    .max(POLL_OPTIONS_MAX, 'A poll has at most 10 options'),
  multiple: z.boolean().default(false),
});
export type CreatePollPayload = z.input<typeof createPollPayload>;
export const closePollPayload = messageOp;
export type ClosePollPayload = z.input<typeof closePollPayload>;
/** The caller's whole vote: replaces any earlier one. Single-choice polls take exactly one index. */
export const voteOnPollPayload = messageOp.extend({
  optionIndexes: z
    .array(
      z
        .number()
        .int()
        .min(0)
        .max(POLL_OPTIONS_MAX - 1),
    )
    .min(1, 'Choose an option')
    .max(POLL_OPTIONS_MAX),
});
export type VoteOnPollPayload = z.input<typeof voteOnPollPayload>;
export const removeVoteOnPollPayload = messageOp;
export type RemoveVoteOnPollPayload = z.input<typeof removeVoteOnPollPayload>;
/** channelId is the source channel; genIds[i] is the new message's genId in channelIds[i]. */
export const forwardMessagePayload = messageOp
  .extend({
    channelIds: z.array(id).min(1, 'Choose a channel').max(FORWARD_TARGETS_MAX),
    genIds: z.array(genId).min(1).max(FORWARD_TARGETS_MAX),
  })
  .refine((p) => p.genIds.length === p.channelIds.length, 'Give one genId per channel')
  .refine((p) => new Set(p.channelIds).size === p.channelIds.length, 'A channel is listed twice');
export type ForwardMessagePayload = z.input<typeof forwardMessagePayload>;
/** A channel manager answers a join request over the socket (same rule as PUT requests/{requestId}). */
export const memberActionPayload = channelRef.extend({
  action: z.literal('request'),
  requestId: id,
  status: z.enum(['approved', 'rejected']),
});
export type MemberActionPayload = z.infer<typeof memberActionPayload>;
/** Sent to the requester and the channel's managers when a join request is made or answered. */
export const memberActionEvent = z.object({
  channelId: id,
  memberId: id,
  action: z.literal('request'),
  status: channelRequestStatus,
  requestId: id,
});
export type MemberActionEvent = z.infer<typeof memberActionEvent>;
/** Visits are recorded for metrics (most-visited members, channels and groups). */
export const visitMemberPayload = z.object({ institutionId: id, memberId: id });
export const visitChannelPayload = channelRef;
export const visitGroupPayload = z.object({ institutionId: id, groupId: id });

export type AckError = { error: { message: string } };
export type Ack<T> = T | AckError;
export const isAckError = (v: unknown): v is AckError =>
  typeof v === 'object' && v !== null && 'error' in v && typeof (v as AckError).error?.message === 'string';

/**
 * joinedChannels, members, institutions: reload that list; sections: the caller's sidebar layout; groups:
 * the workspace's groups; channelMembers: who is in `channelId` (or their channel roles) changed, so a
 * client showing that channel reloads its member list.
 */
export const refreshEvent = z.object({
  value: z.enum(['joinedChannels', 'members', 'institutions', 'sections', 'groups', 'channelMembers']),
  channelId: id.optional(),
});
export const userOnlineStatusEvent = z.object({
  user: z.object({ id }),
  status: z.enum(['online', 'offline']),
});

/** Events the client sends, with their payload and acknowledgement. */
export interface ClientToServerEvents {
  joinChannel: (p: z.input<typeof joinChannelPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  postMessage: (p: z.input<typeof postMessagePayload>, ack: (r: Ack<Message>) => void) => void;
  editMessage: (p: z.input<typeof editMessagePayload>, ack: (r: Ack<Message>) => void) => void;
  deleteMessage: (p: z.input<typeof deleteMessagePayload>, ack: (r: Ack<Message>) => void) => void;
  resetUnreadCount: (p: z.input<typeof resetUnreadCountPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  togglePinMessage: (p: TogglePinMessagePayload, ack: (r: Ack<Message>) => void) => void;
  toggleReaction: (p: ToggleReactionPayload, ack: (r: Ack<Message>) => void) => void;
  toggleStarredMessage: (p: ToggleStarredMessagePayload, ack: (r: Ack<StarredMessage>) => void) => void;
  createPoll: (p: CreatePollPayload, ack: (r: Ack<Message>) => void) => void;
  closePoll: (p: ClosePollPayload, ack: (r: Ack<Message>) => void) => void;
  voteOnPoll: (p: VoteOnPollPayload, ack: (r: Ack<Message>) => void) => void;
  removeVoteOnPoll: (p: RemoveVoteOnPollPayload, ack: (r: Ack<Message>) => void) => void;
  forwardMessage: (p: ForwardMessagePayload, ack: (r: Ack<Message[]>) => void) => void;
  memberAction: (p: z.input<typeof memberActionPayload>, ack: (r: Ack<ChannelRequest>) => void) => void;
  visitMember: (p: z.input<typeof visitMemberPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  visitChannel: (p: z.input<typeof visitChannelPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
  visitGroup: (p: z.input<typeof visitGroupPayload>, ack: (r: Ack<{ ok: true }>) => void) => void;
}

/** Events the server emits. */
export interface ServerToClientEvents {
  newMessage: (m: Message) => void;
  /** Any change to a message: edit, reaction, pin, vote, poll closed. */
  newEditMessage: (m: Message) => void;
  /** Also sent (after newEditMessage) when a message is pinned or unpinned: pinned panels refresh. */
  newEditPinnedMessage: (m: Message) => void;
  newDeleteMessage: (m: Message) => void;
  refresh: (e: z.infer<typeof refreshEvent>) => void;
  userOnlineStatusUpdate: (e: z.infer<typeof userOnlineStatusEvent>) => void;
  memberAction: (e: MemberActionEvent) => void;
}

/** REST error body (Fastify's shape). Socket errors use AckError. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}
