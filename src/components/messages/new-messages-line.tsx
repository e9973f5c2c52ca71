// The "New messages" line (spec §3's lastReadMessage, shown as Slack and Mattermost do): drawn above the
// first message that was unread when the channel was opened, and kept there while the channel stays
// open, however many messages arrive after it.
import { useRef } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';

/**
 * The first of the `unread` newest messages that count as unread (others' live messages, as the unread
 * count counts them). `complete`: the window holds all of them; else `genId` is the oldest it holds.
 */
export function firstUnread(
  messages: readonly MessageDoc[],
  meId: string,
  unread: number,
): { genId: string | null; complete: boolean } {
  let genId: string | null = null;
  let counted = 0;
  for (let i = messages.length - 1; i >= 0 && counted < unread; i--) {
    const m = messages[i];
    if (!m || m.memberId === meId || m.deletedAt !== null || m.status !== 'confirmed') continue;
    genId = m.genId;
    counted += 1;
  }
  return { genId, complete: counted >= unread };
}

/**
 * Where the line goes (a genId, or null for none). `unread` is undefined until the opening has answered.
 * Once the window holds every unread message the place is kept: a message arriving later is read, not
 * new. Until then it is the oldest unread message loaded, which moves up as older pages load.
 */
export function useNewMessagesLine(
  messages: readonly MessageDoc[],
  meId: string,
  unread: number | undefined,
): string | null {
  const decided = useRef<string | null | undefined>(undefined);
  if (decided.current !== undefined) return decided.current;
  if (unread === undefined) return null;
  const { genId, complete } = firstUnread(messages, meId, unread);
  if (complete) decided.current = genId;
  return genId;
}

export function NewMessagesLine() {
  // Plain text between the feed's articles, as the day separators are: read in order, no extra role.
  return (
    <div className="relative flex items-center px-4 pt-3 pb-1" data-new-messages>
      <div className="h-px flex-1 bg-danger/70" />
      <span className="ml-3 text-xs font-semibold text-danger">New messages</span>
    </div>
  );
}
