// Search on this device, offline: the stored messages' plain text, case-insensitive,
// every word of the query present, newest first, with the matches marked like the server's highlight.
import type { MessageDoc } from '../../schemas/collections.ts';
import { plainText } from '../../schemas/plain-text.ts';

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const searchTerms = (query: string): string[] =>
  query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0);

/** The searchable text of a message: its content, or a poll's question and options. */
export function messageText(m: Pick<MessageDoc, 'content' | 'poll'>): string {
  const poll = m.poll ? ` ${m.poll.question} ${m.poll.options.map((o) => o.text).join(' ')}` : '';
  return plainText(m.content + poll);
}

/** HTML-escaped text with each term inside <mark>, cut to about `max` characters around the first match. */
export function highlight(text: string, terms: readonly string[], max = 200): string {
  const lower = text.toLowerCase();
  const first = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), text.length);
  const start = Math.max(0, first - Math.floor(max / 3));
  const excerpt =
    (start > 0 ? '…' : '') + text.slice(start, start + max) + (start + max < text.length ? '…' : '');
  if (!terms.length) return escapeHtml(excerpt);
  const pattern = new RegExp(`(${terms.map(escapeRegExp).join('|')})`, 'gi');
  return excerpt
    .split(pattern)
    .map((part, i) => (i % 2 === 1 ? `<mark>${escapeHtml(part)}</mark>` : escapeHtml(part)))
    .join('');
}

export interface LocalSearchPage {
  hits: { message: MessageDoc; highlight: string }[];
  total: number;
  hasMore: boolean;
}

export function searchLocalMessages(
  messages: readonly MessageDoc[],
  query: string,
  page: number,
  limit: number,
): LocalSearchPage {
  const terms = searchTerms(query);
  if (!terms.length) return { hits: [], total: 0, hasMore: false };
  const matches = messages
    .filter((m) => m.deletedAt === null)
    .map((m) => ({ m, text: messageText(m) }))
    .filter(({ text }) => {
      const lower = text.toLowerCase();
      return terms.every((t) => lower.includes(t));
    })
    .sort((a, b) => (a.m.createdAt < b.m.createdAt ? 1 : a.m.createdAt > b.m.createdAt ? -1 : 0));
  const from = (page - 1) * limit;
  return {
    hits: matches
      .slice(from, from + limit)
      .map(({ m, text }) => ({ message: m, highlight: highlight(text, terms) })),
    total: matches.length,
    hasMore: from + limit < matches.length,
  };
}
