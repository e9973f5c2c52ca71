// Message search (issue 4 item 5): the server's full-text search when connected; the messages on this
// device when offline or when the server cannot answer, marked `source: 'device'` so the screen can say
// "Results from this device".
import type { MessageDoc } from '../../schemas/collections.ts';
import type { Message, MessageSearchResponse } from '../../schemas/protocol.ts';
import { SEARCH_PAGE_SIZE } from '../../schemas/protocol.ts';
import { searchLocalMessages } from '../store/local-search.ts';
import { requireClient } from './client.ts';
import { ApiError } from './http.ts';
import { institutionPath } from './workspace-store.ts';

export type SearchSource = 'server' | 'device';

export interface SearchHit {
  message: MessageDoc | Message;
  /** HTML-escaped excerpt with the matched words inside <mark>. */
  highlight: string;
}

export interface MessageSearchResult {
  results: SearchHit[];
  source: SearchSource;
  total: number;
  hasMore: boolean;
}

/** Rejects with ApiError only when the server refuses the query itself (e.g. too long). */
export async function searchMessages(
  institutionId: string,
  query: string,
  page = 1,
): Promise<MessageSearchResult> {
  const { http, db, worker } = await requireClient();
  if ((await worker.getConnectionStatus()) === 'connected') {
    try {
      const params = new URLSearchParams({
        search: query,
        page: String(page),
        limit: String(SEARCH_PAGE_SIZE),
      });
      const res = await http.get<MessageSearchResponse>(
        `${institutionPath(institutionId)}/messages/search?${params}`,
      );
      return {
        results: res.data.map((h) => ({ message: h.message, highlight: h.highlight })),
        source: 'server',
        total: res.metadata.total,
        hasMore: res.metadata.hasMore,
      };
    } catch (error) {
      // A refusal of the query is the person's to see; anything else falls back to this device.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw error;
    }
  }
  const stored = (await db.messages.find({ selector: { institutionId } }).exec()).map(
    (d) => d.toJSON() as MessageDoc,
  );
  const local = searchLocalMessages(stored, query, page, SEARCH_PAGE_SIZE);
  return { results: local.hits, source: 'device', total: local.total, hasMore: local.hasMore };
}
