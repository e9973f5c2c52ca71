// Message search.
import { z } from 'zod';
import { PAGE_NUMBER_MAX, PAGE_NUMBER_TOO_BIG } from './limits.ts';
import { message } from './messages.ts';

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
