// A link to one message of a channel (a search result, an activity, a starred or pinned message, a reply's
// quote): where it stands in the channel, with the history between it and the newest stored on this
// device, so that the list can reach down to it and show it in place (decision 0087).
import { MESSAGE_PAGE_MAX } from '../../schemas/protocol/index.ts';
import { REACH_MAX } from '../store/message-window-size.ts';
import { applyServerMessages } from '../store/messages.ts';
import { requireClient } from './client.ts';
import { loadOlderMessages } from './messages.ts';
import { fetchQuoted } from './quoted-messages.ts';

/** Where a linked message is, or why it cannot be shown. */
export type LinkedMessage =
  | { kind: 'found'; createdSeq: number }
  /** Deleted since the link was made. */
  | { kind: 'deleted' }
  /** Not a message of this channel (or not one the reader may see). */
  | { kind: 'missing' }
  /** Not on this device, and the server cannot be asked now. */
  | { kind: 'unreachable' }
  /** More than REACH_MAX messages back: the list would draw every one of them. */
  | { kind: 'tooFar' };

/** The stored row of a message by its server id (offline only: a scan of the channel's rows). */
async function storedPlace(channelId: string, messageId: string): Promise<LinkedMessage> {
  const { db } = await requireClient();
  const row = await db.messages.findOne({ selector: { channelId, id: messageId } }).exec();
  if (!row) return { kind: 'unreachable' };
  return row.deletedAt ? { kind: 'deleted' } : { kind: 'found', createdSeq: row.createdSeq };
}

/**
 * Finds a linked message and stores the history from it to the newest: the server says where it is, then
 * older pages (of MESSAGE_PAGE_MAX) follow on from the oldest stored one until they reach it, at most
 * REACH_MAX messages' worth. Offline, only a message already stored can be found.
 */
export async function findLinkedMessage(
  institutionId: string,
  channelId: string,
  messageId: string,
): Promise<LinkedMessage> {
  const asked = await fetchQuoted(institutionId, channelId, messageId);
  if (asked.kind === 'missing') return { kind: 'missing' };
  if (asked.kind === 'unreachable') return storedPlace(channelId, messageId);
  const message = asked.message;
  if (message.deletedAt) return { kind: 'deleted' };
  const { db } = await requireClient();
  for (let pages = 0; ; pages++) {
    const oldest = await db.messages
      .findOne({ selector: { channelId, createdSeq: { $gt: 0 } }, sort: [{ createdSeq: 'asc' }] })
      .exec();
    if (oldest && oldest.createdSeq <= message.createdSeq) break;
    if (pages * MESSAGE_PAGE_MAX >= REACH_MAX) return { kind: 'tooFar' };
    try {
      const { hasMore } = await loadOlderMessages(institutionId, channelId, MESSAGE_PAGE_MAX);
      if (!hasMore) break;
    } catch {
      return storedPlace(channelId, messageId);
    }
  }
  // Stored with its neighbours by now; stored again in case it sits in a gap a catch-up has yet to fill
  // (decision 0061), so that the row is there to show. Without its star: the answer may be from earlier
  // in this tab's life (fetchQuoted keeps it), and a star set since must not be taken back by it. An
  // older revision changes nothing else (the newer seq wins, message-merge.ts).
  const { isStarred: _star, ...withoutStar } = message;
  await applyServerMessages(db, [withoutStar]);
  return { kind: 'found', createdSeq: message.createdSeq };
}
