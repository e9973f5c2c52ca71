// Operations the server refused: each leaves a notice that a screen shows once as a toast and dismisses.

import { useMemo } from 'react';
import type { Notice } from '../../schemas/collections.ts';
import { removeRecord } from '../store/records.ts';
import { requireClient } from './client.ts';
import { useRecords } from './store-reads.ts';

/** Operations the server refused, oldest first: show each as a toast, then dismissNotice(id). */
export function useNotices(institutionId: string): Notice[] | undefined {
  const list = useRecords('notice', { institutionId });
  return useMemo(() => list && [...list].sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)), [list]);
}

/** A toast was shown: the notice goes. */
export async function dismissNotice(noticeId: string): Promise<void> {
  const { db } = await requireClient();
  await removeRecord(db, 'notice', noticeId);
}
