// Applies a server copy of a message to the store and advances the channel checkpoint only when the
// change is contiguous (seq = checkpoint + 1). Returns whether a gap was seen (the caller pulls).
import type { Message } from '../schemas/protocol/index.ts';
import { advanceLastSent } from '../src/store/last-sent.ts';
import { applyServerMessage } from '../src/store/messages.ts';
import type { SyncDatabase } from './sync-database.ts';

export interface ApplyResult {
  /** The store did not hold this message before. */
  isNew: boolean;
  /** seq jumped past checkpoint + 1: something was missed. */
  gap: boolean;
}

export async function applyChannelMessage(
  db: SyncDatabase,
  message: Message,
  options: { isLive: boolean },
): Promise<ApplyResult> {
  const isNew = await applyServerMessage(db, message);
  if (!options.isLive) return { isNew, gap: false };
  // A new message (anyone's, one's own acknowledged post too) makes its conversation the latest.
  if (message.seq === message.createdSeq) await advanceLastSent(db.channels, [message]);
  const state = await db.syncState.findOne(message.channelId).exec();
  if (!state) return { isNew, gap: false };
  let gap = false;
  // Decided on the freshest row: a pull may have moved the checkpoint meanwhile.
  await state.incrementalModify((d) => {
    if (message.seq === d.checkpoint + 1) return { ...d, checkpoint: message.seq };
    gap = message.seq > d.checkpoint + 1;
    return d;
  });
  return { isNew, gap };
}
