// How large a request may be: each REST route and each socket event accepts at most what its largest
// legitimate body needs, so anything larger is refused (413, or an error ack) before it is read whole or
// parsed. The sizes follow the schemas' own caps; a route or event not listed gets the small default.
import {
  CHANNEL_MEMBERS_PER_CALL_MAX,
  type ClientToServerEvents,
  KNOWLEDGE_SOURCE_MAX_CHARS,
  MESSAGE_CONTENT_MAX,
} from '../schemas/protocol/index.ts';

const KiB = 1024;
/** UTF-8 takes up to 3 bytes for one UTF-16 unit of text, so a cap in characters is up to 3× in bytes. */
const UTF8_BYTES_MAX = 3;
/** An id with its quotes and comma in a JSON array (ids are at most 64 characters). */
const ID_BYTES = 67;

/** Request body limits in bytes, by kind of route. */
export const BODY_LIMITS = {
  /** Every route not given another: names, ids, flags, small patches (the app-wide default). */
  default: 16 * KiB,
  /** Up to 500 ids (members, genIds, activities) or 100 e-mail addresses of up to 254 characters. */
  list: CHANNEL_MEMBERS_PER_CALL_MAX * ID_BYTES + 16 * KiB,
  /** A sidebar layout: every channel of a large workspace (about 3 500 ids) placed in sections. */
  sections: 256 * KiB,
  /** An agent: instructions of up to 10 000 characters with its other fields. */
  agent: 64 * KiB,
  /** An MCP connection: up to 64 arguments of 2 000 characters, with its variables and headers. */
  mcpConnection: 512 * KiB,
  /** A message: 40 000 characters of HTML, 20 attachments and 100 mentions. */
  message: MESSAGE_CONTENT_MAX * UTF8_BYTES_MAX + 96 * KiB,
  /** A knowledge source given as text (at most 500 000 characters). */
  knowledgeText: KNOWLEDGE_SOURCE_MAX_CHARS * UTF8_BYTES_MAX + 16 * KiB,
} as const;

/**
 * The largest payload each socket event accepts, measured as the JSON the client sent. Typed by the event
 * list, so a new event cannot be added without naming its limit.
 */
export const EVENT_LIMITS: Record<keyof ClientToServerEvents, number> = {
  joinChannel: BODY_LIMITS.default,
  postMessage: BODY_LIMITS.message,
  editMessage: BODY_LIMITS.message,
  deleteMessage: BODY_LIMITS.default,
  resetUnreadCount: BODY_LIMITS.default,
  togglePinMessage: BODY_LIMITS.default,
  toggleReaction: BODY_LIMITS.default,
  toggleStarredMessage: BODY_LIMITS.default,
  createPoll: BODY_LIMITS.default,
  closePoll: BODY_LIMITS.default,
  voteOnPoll: BODY_LIMITS.default,
  removeVoteOnPoll: BODY_LIMITS.default,
  forwardMessage: BODY_LIMITS.default,
  memberAction: BODY_LIMITS.default,
  visitMember: BODY_LIMITS.default,
  visitChannel: BODY_LIMITS.default,
  visitGroup: BODY_LIMITS.default,
};

/**
 * socket.io's cap on one incoming message: the largest event plus its envelope (event name, ack id). A
 * larger message makes socket.io close that one connection; every other socket carries on.
 */
export const SOCKET_MESSAGE_MAX_BYTES = Math.max(...Object.values(EVENT_LIMITS)) + KiB;

/** A size for people: "16 kB", "1.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${Math.round(bytes / 100_000) / 10} MB`;
}
