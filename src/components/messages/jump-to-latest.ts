// "Jump to latest" (issue 15 item 2): how many messages arrived since the person scrolled away from the
// newest one. Counted by identity, not position: a message of someone else delivered after a reconnect
// can land before one's own older pending message, and is still new. One's own sends are not news.
import type { MessageDoc } from '../../../schemas/collections.ts';

/** Messages by others that were not in the list (`known`, by genId) when the person scrolled up. */
export function newSince(messages: readonly MessageDoc[], known: ReadonlySet<string>, meId: string): number {
  let count = 0;
  for (const m of messages) if (!known.has(m.genId) && m.memberId !== meId) count++;
  return count;
}
