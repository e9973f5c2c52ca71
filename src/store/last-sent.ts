// A channel's latest message, kept current as messages arrive (live, acknowledged or pulled), so the
// direct messages list can put the latest conversation first and the channel screen knows it is in use
// without waiting for the next joined-channels fetch.
import type { RxCollection } from 'rxdb';
import type { ChannelDoc } from '../../schemas/collections.ts';
import type { Message } from '../../schemas/protocol/index.ts';

/** Moves each channel's lastSentMessage forward to the newest live message among `messages`. */
export async function advanceLastSent(
  channels: RxCollection<ChannelDoc>,
  messages: readonly Message[],
): Promise<void> {
  const newest = new Map<string, Message>();
  for (const m of messages) {
    if (m.deletedAt !== null) continue;
    const seen = newest.get(m.channelId);
    if (!seen || seen.createdAt < m.createdAt) newest.set(m.channelId, m);
  }
  if (!newest.size) return;
  const docs = await channels.findByIds([...newest.keys()]).exec();
  for (const [channelId, m] of newest) {
    const doc = docs.get(channelId);
    if (!doc || (doc.lastSentMessage && doc.lastSentMessage.createdAt >= m.createdAt)) continue;
    // Decided again on the freshest row: a joined-channels fetch may have written a newer one meanwhile.
    await doc.incrementalModify((d) =>
      d.lastSentMessage && d.lastSentMessage.createdAt >= m.createdAt
        ? d
        : { ...d, lastSentMessage: { id: m.id, createdAt: m.createdAt } },
    );
  }
}
