// Messages and what hangs off them (mentions, attachments, reactions, polls); paging and catch-up.
import { z } from 'zod';
import { agentAnswer } from './agent-answers.ts';
import { channelRef } from './channels.ts';
import {
  CHANGES_CHANNELS_MAX,
  CHANGES_PAGE_MAX,
  MESSAGE_CONTENT_MAX,
  MESSAGE_PAGE_MAX,
  MESSAGE_PAGE_SIZE,
  PAGE_NUMBER_MAX,
  PAGE_NUMBER_TOO_BIG,
} from './limits.ts';
import { genId, id, isoDate } from './primitives.ts';

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
  /**
   * The reader's own star (stars are private): on REST reads of history and change feeds, and on star
   * acks and messageStarred. Absent on broadcasts, which every member shares: the client keeps its own.
   */
  isStarred: z.boolean().optional(),
});
export type Message = z.infer<typeof message>;
/** The starrer's view: acks of toggleStarredMessage and messageStarred to the starrer's other sessions. */
export const starredMessage = message.extend({ isStarred: z.boolean() });
export type StarredMessage = z.infer<typeof starredMessage>;

// ───────────────────────────── REST: messages ─────────────────────────────
const numberedPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG).default(1),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_MAX).default(MESSAGE_PAGE_SIZE),
});
const BEFORE_REFUSED = '"before" names a message by its position in the channel: a whole number from 1.';
/**
 * A channel's history, newest first. `before` (a createdSeq) asks for the messages older than that one,
 * whatever was posted or deleted since: the client's older pages follow on from its oldest stored message,
 * where a page number, counted over a history that changes between pages, skipped or repeated messages.
 * Without it, `page` counts from the newest (page 1: what a refresh fetches).
 */
export const messagePageQuery = numberedPageQuery.extend({
  before: z.coerce
    .number({ error: BEFORE_REFUSED })
    .int(BEFORE_REFUSED)
    .min(1, BEFORE_REFUSED)
    .max(Number.MAX_SAFE_INTEGER, BEFORE_REFUSED)
    .optional(),
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

/**
 * Catch-up of many channels in one request: each named channel's changes after its own checkpoint. A
 * channel the caller is not a member of (or of another workspace) gets no changes and is listed in
 * `notMember`. Each channel gets at most `limit` rows, fewer when many channels share one answer.
 */
export const workspaceChangesBody = z.object({
  channels: z
    .array(z.object({ channelId: id, after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }))
    .min(1, 'Name at least one channel')
    .max(CHANGES_CHANNELS_MAX, `Ask for at most ${CHANGES_CHANNELS_MAX} channels at a time`)
    .refine((list) => new Set(list.map((c) => c.channelId)).size === list.length, {
      message: 'Name each channel once',
    }),
  limit: z.number().int().min(1).max(CHANGES_PAGE_MAX).default(200),
});
export type WorkspaceChangesBody = z.input<typeof workspaceChangesBody>;
export const channelChanges = changesResponse.extend({ channelId: id });
export const workspaceChangesResponse = z.object({
  data: z.array(channelChanges),
  notMember: z.array(id),
  /**
   * The genIds of the caller's starred messages in the answered channels, newest star first, at most
   * STARRED_SYNC_MAX: a device that was away while a star was made or undone elsewhere sets its own by
   * them (decision 0082). `starredComplete` is false when there were more: then none is cleared.
   */
  starred: z.array(genId),
  starredComplete: z.boolean(),
});
export type WorkspaceChangesResponse = z.infer<typeof workspaceChangesResponse>;

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
/**
 * Spec §7 gives the REST post as `{content}`: genId is optional there. Without one the server picks it, so
 * a caller that retries may post twice; the app always sends one (exactly once, decision 0002).
 */
export const postMessageRestBody = z.object({ ...messageFields, genId: genId.optional() });

/** Pinned and starred side panels (starred: the caller's own stars in that channel). Newest first. */
export const messageListQuery = numberedPageQuery;
export const messageListItem = z.object({ message });
export const messageListResponse = z.object({
  data: z.array(messageListItem),
  metadata: z.object({ page: z.number(), limit: z.number(), total: z.number(), hasMore: z.boolean() }),
});
export type MessageListResponse = z.infer<typeof messageListResponse>;

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
