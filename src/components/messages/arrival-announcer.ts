// What a screen reader says when messages arrive in the open channel (decision 0077). The rows are a feed,
// read at the listener's pace; an arrival is spoken once, through a polite live region beside the list:
// another person's message read out when the list follows the newest, counted ("2 new messages below")
// when they have scrolled up, as the Jump to latest button counts them. One's own sends, older pages and
// the rows already there when the channel opened are not news. An agent's answer is spoken when it is
// written, not while it says "Thinking…" (its own status line says that).
import { useEffect, useRef } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { plainText } from '../../../schemas/plain-text.ts';

/** More arrivals than this at once (a catch-up after a reconnect) are counted, not read out. */
export const READ_OUT_AT_ONCE = 3;
/** A message's text is cut here: the listener can read the row itself for the rest. */
export const SPOKEN_TEXT_MAX = 300;

/** What one arrival says: whose, and its text (or what stands in for it). */
export function spokenMessage(message: MessageDoc, authorName: string): string {
  if (message.agentAnswer?.status === 'failed') return `${authorName} could not answer.`;
  const text = plainText(message.content);
  const body = text
    ? text.length > SPOKEN_TEXT_MAX
      ? `${text.slice(0, SPOKEN_TEXT_MAX).trimEnd()}…`
      : text
    : message.poll
      ? `poll, ${plainText(message.poll.question)}`
      : message.attachments.length === 1
        ? 'shared a file'
        : message.attachments.length > 1
          ? `shared ${message.attachments.length} files`
          : 'sent a message';
  return `${authorName}: ${body}`;
}

/**
 * The announcement for messages that just became news, or null for none. `awayCount` is how many new
 * messages wait below when the reader has scrolled up (null while the list follows the newest).
 */
export function arrivalAnnouncement(
  arrivals: readonly { message: MessageDoc; authorName: string }[],
  awayCount: number | null,
): string | null {
  if (arrivals.length === 0) return null;
  if (awayCount !== null) {
    const n = Math.max(awayCount, arrivals.length);
    return n === 1 ? '1 new message below.' : `${n} new messages below.`;
  }
  if (arrivals.length > READ_OUT_AT_ONCE) return `${arrivals.length} new messages.`;
  // Each its own sentence, so the voice pauses between them.
  return arrivals
    .map((a) => spokenMessage(a.message, a.authorName))
    .map((said) => (arrivals.length > 1 && !/[.!?…]$/.test(said) ? `${said}.` : said))
    .join(' ');
}

/** An agent's answer still being written: spoken once it is done or has failed. */
const stillWriting = (m: MessageDoc) =>
  m.agentAnswer !== null && m.agentAnswer.status !== 'done' && m.agentAnswer.status !== 'failed';

/**
 * Which of `messages` became news since the last call: another person's confirmed messages past the
 * newest position seen before (older pages come below it), and agents' answers that have just finished.
 * Remembers what it saw in `seen`; the first call only takes note (of answers still being written, too).
 */
export function takeArrivals(
  messages: readonly MessageDoc[],
  meId: string,
  seen: { newest: number | null; writing: Set<string> },
): MessageDoc[] {
  const newestFirst: MessageDoc[] = [];
  const before = seen.newest;
  let newest = before ?? 0;
  // Pending rows (position 0) sort last, so the newest confirmed ones are read from the end until one
  // at or below what was seen.
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as MessageDoc;
    if (m.createdSeq === 0) continue;
    if (before !== null && m.createdSeq <= before) break;
    newest = Math.max(newest, m.createdSeq);
    if (m.memberId === meId || m.deletedAt) continue;
    if (stillWriting(m)) seen.writing.add(m.genId);
    else if (before !== null) newestFirst.push(m);
  }
  seen.newest = newest;
  const arrivals = newestFirst.reverse();
  if (seen.writing.size > 0 && before !== null) {
    for (const m of messages) {
      if (!seen.writing.has(m.genId) || stillWriting(m)) continue;
      seen.writing.delete(m.genId);
      if (!m.deletedAt) arrivals.push(m);
    }
  }
  return arrivals;
}

/**
 * Speaks arrivals into the returned element (a polite live region). Written directly, after the frame
 * that draws the rows: nothing re-renders for it, and a live message's paint does not wait on it.
 */
export function useArrivalAnnouncer(
  messages: readonly MessageDoc[],
  meId: string,
  authorName: (memberId: string) => string,
  awayCount: () => number | null,
) {
  const region = useRef<HTMLParagraphElement>(null);
  const seen = useRef<{ newest: number | null; writing: Set<string> }>({ newest: null, writing: new Set() });
  const latest = useRef({ authorName, awayCount });
  latest.current = { authorName, awayCount };
  useEffect(() => {
    const arrivals = takeArrivals(messages, meId, seen.current);
    const { authorName: nameOf, awayCount: away } = latest.current;
    const said = arrivalAnnouncement(
      arrivals.map((message) => ({ message, authorName: nameOf(message.memberId) })),
      away(),
    );
    const el = region.current;
    if (!said || !el) return;
    // The same words again (two "ok"s) are a change only if the text differs: a no-break space makes it.
    el.textContent = el.textContent === said ? `${said}\u00a0` : said;
  }, [messages, meId]);
  return region;
}
