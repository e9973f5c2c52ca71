// Files of a channel (the Files panel) fetched into `records`, and a file's bytes for previews and
// downloads (decision 0007: served with the bearer token, so screens never fetch them themselves).

import { useMemo } from 'react';
import { FILES_PAGE_SIZE, type FileEntity } from '../../schemas/protocol/index.ts';
import { ApiError } from '../store/http.ts';
import { appOrigin, sameOriginUrl } from '../store/own-origin.ts';
import { putRecords, replaceRecords } from '../store/records.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useRemoteQuery } from './remote-query.ts';
import { useRecords } from './store-reads.ts';

/**
 * The channel's files, newest first, whose name contains `search` (case-insensitive). Fetched on mount
 * and per search; read from the store, so offline it lists the files seen before.
 */
export function useChannelFiles(
  institutionId: string,
  channelId: string,
  search = '',
): FileEntity[] | undefined {
  const query = search.trim();
  useRefreshOnMount(`${institutionId}/${channelId}/${query}`, () =>
    refreshChannelFiles(institutionId, channelId, { search: query }),
  );
  const files = useRecords('channelFile', { scope: channelId });
  return useMemo(() => {
    if (!files) return undefined;
    const needle = query.toLowerCase();
    return files
      .filter((f) => !needle || f.fileName.toLowerCase().includes(needle))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }, [files, query]);
}

/**
 * A page of the channel's files into the store. The unfiltered first page replaces what was kept
 * (deleted files drop out); a search or a later page only adds, so the offline list keeps all it saw.
 */
export async function refreshChannelFiles(
  institutionId: string,
  channelId: string,
  { search = '', page = 1 }: { search?: string; page?: number } = {},
): Promise<{ hasMore: boolean; total: number }> {
  const { http, db } = await requireClient();
  const params = new URLSearchParams({ channelId, page: String(page), limit: String(FILES_PAGE_SIZE) });
  const query = search.trim();
  if (query) params.set('search', query);
  const res = await http.call('files', { params: { id: institutionId }, query: params });
  // The server lists only this channel's files; the filter keeps a stray row out of its scope anyway.
  const files: FileEntity[] = res.data.filter((f) => f.channelId === channelId);
  const place = { scope: channelId, institutionId };
  if (page === 1 && !query) await replaceRecords(db, 'channelFile', { scope: channelId }, files, place);
  else
    await putRecords(
      db,
      'channelFile',
      files.map((data) => ({ data, place })),
    );
  return { hasMore: res.metadata.hasMore, total: res.metadata.total };
}

/** A file's bytes failed to arrive; the message is what people see (spec §7). */
class FileFetchError extends Error {
  constructor(detail: string) {
    super(`Failed to fetch file ${detail}`.trim());
    this.name = 'FileFetchError';
  }
}

/**
 * A file's bytes: our own addresses (same origin, by URL parsing) go through the REST client with the
 * session token; any other address is fetched as is, never with our token. Rejects with FileFetchError
 * ('Failed to fetch file {status text}').
 */
export async function fetchFile(url: string): Promise<Blob> {
  const { http } = await requireConnection();
  try {
    // Stored messages may still carry addresses a client made up: decide by origin, never by prefix.
    const own = sameOriginUrl(url, appOrigin());
    if (own) return await http.getBlob(own.pathname + own.search);
    const res = await fetch(url);
    if (!res.ok) throw new FileFetchError(res.statusText || String(res.status));
    return await res.blob();
  } catch (error) {
    if (error instanceof FileFetchError) throw error;
    if (error instanceof ApiError) throw new FileFetchError(error.message);
    throw new FileFetchError(error instanceof Error ? error.message : '');
  }
}

/**
 * The opening text of a Word or PowerPoint attachment (issue 15 item 6), read by the server; null for
 * other files, undefined while loading or offline (the card then shows without it).
 */
export function useFileExcerpt(fileId: string | null): string | null | undefined {
  const state = useRemoteQuery(fileId ? `file-excerpt:${fileId}` : null, async () => {
    const { http } = await requireConnection();
    return (await http.call('fileExcerpt', { params: { id: fileId ?? '' } })).excerpt;
  });
  return state.data;
}
