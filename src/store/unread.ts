// Spec §4 unread rule: an incoming message raises its channel's count unless that channel is open
// (in any tab) or the message is one's own; opening a channel resets it.

export interface IncomingMessageFacts {
  channelId: string;
  authorMemberId: string;
  /** The user's member id in the message's workspace (null when unknown). */
  ownMemberId: string | null;
  openChannelIds: ReadonlySet<string>;
  /** False when the store already held this message (a repeat must not count twice). */
  isNew: boolean;
}

export function raisesUnread(f: IncomingMessageFacts): boolean {
  if (!f.isNew) return false;
  if (f.openChannelIds.has(f.channelId)) return false;
  return f.authorMemberId !== f.ownMemberId;
}
