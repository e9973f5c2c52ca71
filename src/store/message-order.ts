// The order a channel's messages are shown in: confirmed by position (createdSeq), then the local
// ones not yet confirmed (pending, failed) by when they were written. Tombstones are not shown.
import type { MessageDoc } from '../../schemas/collections.ts';

export function compareMessages(a: MessageDoc, b: MessageDoc): number {
  const aConfirmed = a.status === 'confirmed';
  const bConfirmed = b.status === 'confirmed';
  if (aConfirmed !== bConfirmed) return aConfirmed ? -1 : 1;
  if (aConfirmed) return a.createdSeq - b.createdSeq;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  // genIds are UUIDv7: equal timestamps still sort by creation.
  return a.genId < b.genId ? -1 : a.genId > b.genId ? 1 : 0;
}

/** Visible messages of one channel, oldest first. */
export function orderMessages(messages: readonly MessageDoc[]): MessageDoc[] {
  return messages.filter((m) => m.deletedAt === null).sort(compareMessages);
}
