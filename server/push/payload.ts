// The push message (spec §3 fields) for one recipient, kept under MAX_PAYLOAD_BYTES: push services refuse
// bodies past about 4 KB once encrypted, so the text is cut (at a character, with an ellipsis) to fit.
import type { PushMessage } from '../../schemas/protocol/index.ts';
import type { PushReason } from './decision.ts';

/** The JSON before encryption; RFC 8291 adds 86+ bytes and services take 4096 at most. */
export const MAX_PAYLOAD_BYTES = 3 * 1024;
const ELLIPSIS = '…';

export interface PayloadInput {
  reason: PushReason;
  authorName: string;
  channelName: string;
  channelId: string;
  institutionId: string;
  messageId: string;
  /** The message's text without markup. */
  text: string;
  isPwa: boolean;
  idOnly: boolean;
  /** The recipient's unread total, for the app badge (server/push/unread-total.ts). */
  unreadCount: number;
}

/** What the notification says: who wrote, and where unless it is a direct message. */
export function pushTitle(input: Pick<PayloadInput, 'reason' | 'authorName' | 'channelName'>): string {
  if (input.reason === 'direct_message') return input.authorName;
  return `${input.authorName} in #${input.channelName}`;
}

const bytes = (m: PushMessage) => Buffer.byteLength(JSON.stringify(m));

/** Cuts `text` to the longest prefix (whole code points) for which `fits` holds, ellipsis included. */
function longestFitting(text: string, fits: (candidate: string) => boolean): string {
  if (fits(text)) return text;
  const chars = Array.from(text);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(chars.slice(0, mid).join('') + ELLIPSIS)) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : chars.slice(0, lo).join('') + ELLIPSIS;
}

export function buildPayload(input: PayloadInput): PushMessage {
  const base: PushMessage = {
    title: input.idOnly ? '' : pushTitle(input),
    body: '',
    channelId: input.channelId,
    clientId: input.institutionId,
    messageId: input.messageId,
    isPwa: input.isPwa,
    // An installed app is suspended in the background: its store missed what came meanwhile.
    requiresRefresh: input.isPwa,
    idOnly: input.idOnly,
    unreadCount: input.unreadCount,
  };
  if (input.idOnly) return base;
  const title = longestFitting(base.title, (t) => bytes({ ...base, title: t }) <= MAX_PAYLOAD_BYTES / 2);
  const withTitle = { ...base, title };
  const body = longestFitting(
    input.text.replace(/\s+/g, ' ').trim(),
    (b) => bytes({ ...withTitle, body: b }) <= MAX_PAYLOAD_BYTES,
  );
  return { ...withTitle, body };
}
