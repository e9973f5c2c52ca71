// The channel's pinned messages and the caller's starred ones: fetched page by page into `records` and
// joined with the stored messages, so a pin or star made here shows at once.

import type { MessageDoc } from '../../schemas/collections.ts';
import { MESSAGE_PAGE_SIZE, type Message } from '../../schemas/protocol/index.ts';
import { applyServerMessage } from '../store/messages.ts';
import { putRecords, replaceRecords } from '../store/records.ts';
import { requireClient } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useStoreRead } from './store-reads.ts';

function useMessageList(
  kind: 'pinnedMessage' | 'starredMessage',
  _institutionId: string,
  channelId: string,
  _isIn: (m: MessageDoc) => boolean,
): (MessageDoc | Message)[] | undefined {
  return useStoreRead('messageList', { kind, channelId });
}

/** The channel's pinned messages, newest first (fetched on mount; pins made here show at once). */
export function usePinnedMessages(
  institutionId: string,
  channelId: string,
): (MessageDoc | Message)[] | undefined {
  useRefreshOnMount(`${institutionId}/${channelId}`, () => refreshPinnedMessages(institutionId, channelId));
  return useMessageList('pinnedMessage', institutionId, channelId, (m) => m.isPinned);
}

/** The caller's starred messages in the channel, newest first (fetched on mount; stars made here show at once). */
export function useStarredMessages(
  institutionId: string,
  channelId: string,
): (MessageDoc | Message)[] | undefined {
  useRefreshOnMount(`${institutionId}/${channelId}`, () => refreshStarredMessages(institutionId, channelId));
  return useMessageList('starredMessage', institutionId, channelId, (m) => m.isStarred);
}

async function fetchMessageList(
  kind: 'pinnedMessage' | 'starredMessage',
  institutionId: string,
  channelId: string,
  page: number,
): Promise<{ hasMore: boolean }> {
  const { http, db } = await requireClient();
  const res = await http.call(kind === 'pinnedMessage' ? 'pinnedMessages' : 'starredMessages', {
    params: { id: institutionId, channelId },
    query: { page: String(page), limit: String(MESSAGE_PAGE_SIZE) },
  });
  const messages: Message[] = res.data.map((i) => i.message);
  const place = { scope: channelId, institutionId };
  // The first page replaces the list (unpinned elsewhere drop out); later pages add to it.
  if (page === 1) await replaceRecords(db, kind, { scope: channelId }, messages, place);
  else
    await putRecords(
      db,
      kind,
      messages.map((data) => ({ data, place })),
    );
  // Messages the store already holds get the fresher copy (and starred ones their star).
  for (const m of messages) {
    if (!(await db.messages.findOne(m.genId).exec())) continue;
    await applyServerMessage(db, kind === 'starredMessage' ? { ...m, isStarred: true } : m);
  }
  return { hasMore: res.metadata.hasMore };
}

function refreshPinnedMessages(
  institutionId: string,
  channelId: string,
  page = 1,
): Promise<{ hasMore: boolean }> {
  return fetchMessageList('pinnedMessage', institutionId, channelId, page);
}

function refreshStarredMessages(
  institutionId: string,
  channelId: string,
  page = 1,
): Promise<{ hasMore: boolean }> {
  return fetchMessageList('starredMessage', institutionId, channelId, page);
}
