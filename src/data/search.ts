// Message search: the server's full-text search when connected; the messages on this device when
// offline or when the server cannot answer, marked `source: 'device'` so the screen can say "Results from
// this device".

import { useEffect, useState } from 'react';
import type { MessageDoc } from '../../schemas/collections.ts';
import { type Message, SEARCH_PAGE_SIZE } from '../../schemas/protocol/index.ts';
import { ApiError } from '../store/http.ts';
import { searchLocalMessages } from '../store/local-search.ts';
import { requireClient } from './client.ts';

interface MessageSearchState {
  results: SearchHit[];
  /** 'device': offline (or the server failed): say "Results from this device". */
  source: SearchSource;
  loading: boolean;
  hasMore: boolean;
  total: number;
  /** The server refused the query (e.g. too long): its message. */
  error: string | null;
  loadMore(): void;
}

/** Searches as the query changes (an empty query: no results); pages append with loadMore(). */
export function useMessageSearch(institutionId: string, query: string): MessageSearchState {
  const [state, setState] = useState<{
    key: string;
    pages: MessageSearchResult[];
    loading: boolean;
    error: string | null;
  }>({ key: '', pages: [], loading: false, error: null });
  const [page, setPage] = useState(1);
  const key = `${institutionId}\n${query.trim()}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts again at page 1
  useEffect(() => setPage(1), [key]);
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setState({ key, pages: [], loading: false, error: null });
      return;
    }
    let live = true;
    setState((s) => ({ key, pages: s.key === key ? s.pages : [], loading: true, error: null }));
    searchMessages(institutionId, q, page)
      .then((res) => {
        if (!live) return;
        setState((s) => ({
          key,
          pages: page === 1 || s.key !== key ? [res] : [...s.pages.slice(0, page - 1), res],
          loading: false,
          error: null,
        }));
      })
      .catch((error: unknown) => {
        if (live)
          setState({
            key,
            pages: [],
            loading: false,
            error: error instanceof Error ? error.message : String(error),
          });
      });
    return () => {
      live = false;
    };
  }, [key, page, institutionId, query]);
  const pages = state.key === key ? state.pages : [];
  const last = pages[pages.length - 1];
  return {
    results: pages.flatMap((p) => p.results),
    source: last?.source ?? 'server',
    loading: state.key !== key || state.loading,
    hasMore: last?.hasMore ?? false,
    total: last?.total ?? 0,
    error: state.key === key ? state.error : null,
    loadMore: () => {
      if (last?.hasMore) setPage(pages.length + 1);
    },
  };
}

type SearchSource = 'server' | 'device';

interface SearchHit {
  message: MessageDoc | Message;
  /** HTML-escaped excerpt with the matched words inside <mark>. */
  highlight: string;
}

interface MessageSearchResult {
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
      const res = await http.call('searchMessages', {
        params: { id: institutionId },
        query: { search: query, page: String(page), limit: String(SEARCH_PAGE_SIZE) },
      });
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
