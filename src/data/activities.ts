// The caller's activity feed (mentions, replies, reactions …): fetched into `records`, marked read here at
// once and then on the server.

import { useMemo } from 'react';
import { ACTIVITY_PAGE_SIZE, type Activity } from '../../schemas/protocol/index.ts';
import { listRecords, putRecords, replaceRecords } from '../store/records.ts';
import { requireClient } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useRecords } from './store-reads.ts';

/** The caller's activity feed, newest first, with the unread count (fetched on mount). */
export function useActivities(institutionId: string): { activities: Activity[]; unread: number } | undefined {
  useRefreshOnMount(institutionId, () => refreshActivities(institutionId));
  const list = useRecords('activity', { scope: institutionId });
  return useMemo(() => {
    if (!list) return undefined;
    const activities = [...list].sort((a, b) =>
      a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0,
    );
    return { activities, unread: activities.filter((a) => !a.read).length };
  }, [list]);
}

/** A page of the caller's activity feed into the store; the first page replaces what was kept. */
async function refreshActivities(
  institutionId: string,
  page = 1,
): Promise<{ hasMore: boolean; unread: number }> {
  const { http, db } = await requireClient();
  const res = await http.call('activities', {
    params: { id: institutionId },
    query: { page: String(page), limit: String(ACTIVITY_PAGE_SIZE) },
  });
  const place = { scope: institutionId, institutionId };
  if (page === 1) await replaceRecords(db, 'activity', { scope: institutionId }, res.data, place);
  else
    await putRecords(
      db,
      'activity',
      res.data.map((data) => ({ data, place })),
    );
  return { hasMore: res.metadata.hasMore, unread: res.metadata.unread };
}

/** Marks these activities (or all of them) read, here at once and then on the server. */
export async function markActivitiesRead(institutionId: string, ids: string[] | 'all'): Promise<void> {
  const { http, db } = await requireClient();
  const stored = await listRecords(db, 'activity', { scope: institutionId });
  const wanted = ids === 'all' ? null : new Set(ids);
  const changed = stored.filter((a) => !a.read && (!wanted || wanted.has(a.id)));
  const place = { scope: institutionId, institutionId };
  await putRecords(
    db,
    'activity',
    changed.map((a) => ({ data: { ...a, read: true }, place })),
  );
  if (ids !== 'all' && ids.length === 0) return;
  await http.call('markActivitiesRead', {
    params: { id: institutionId },
    body: ids === 'all' ? { all: true } : { ids },
  });
}
