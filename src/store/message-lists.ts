// The pinned and starred side panels: the server's list (records) joined with the stored messages, so a
// pin or star made here shows in the panel at once and one undone here leaves it at once.

import type { RxCollection } from 'rxdb';
import type { MessageDoc, RecordDoc } from '../../schemas/collections.ts';
import type { Message } from '../../schemas/protocol/index.ts';
import { putRecord, removeRecord } from './records.ts';

/** A live pin or unpin (newEditPinnedMessage) keeps the stored pinned list in step. */
export async function applyPinnedChange(records: RxCollection<RecordDoc>, message: Message): Promise<void> {
  if (message.isPinned)
    await putRecord({ records }, 'pinnedMessage', message, {
      scope: message.channelId,
      institutionId: message.institutionId,
    });
  else await removeRecord({ records }, 'pinnedMessage', message.genId);
}

/**
 * The panel's rows, newest first: listed messages, each replaced by the stored copy when the store has
 * it (so local pins/stars count), minus those the stored copy says are no longer in, plus stored
 * messages of the channel that are in but not listed yet.
 */
export function joinMessageList(
  listed: readonly Message[],
  stored: readonly MessageDoc[],
  isIn: (m: MessageDoc) => boolean,
): (MessageDoc | Message)[] {
  const byGenId = new Map(stored.map((m) => [m.genId, m]));
  const rows: (MessageDoc | Message)[] = [];
  const seen = new Set<string>();
  for (const m of listed) {
    seen.add(m.genId);
    const local = byGenId.get(m.genId);
    if (!local) rows.push(m);
    else if (isIn(local) && local.deletedAt === null) rows.push(local);
  }
  for (const m of stored) if (!seen.has(m.genId) && isIn(m) && m.deletedAt === null) rows.push(m);
  return rows.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
