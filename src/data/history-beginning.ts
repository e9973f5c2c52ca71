// Which channels' server history this tab has paged to the beginning: a message list mounted again there
// (back in the channel, a phone turned to a wider layout) has nothing older to ask for and shows the
// channel's intro at once. It describes what the store holds, so it goes when the store's messages go
// (clearLocalSession); in memory only, since the spec keeps no-more-pages markers out of what is persisted.
const reached = new Set<string>();

/** The server said the stored messages of this channel reach back to its first one. */
export function noteBeginningReached(channelId: string): void {
  reached.add(channelId);
}

export function beginningReached(channelId: string): boolean {
  return reached.has(channelId);
}

/** The store's messages were cleared (signed out): nothing is known to be stored back to a beginning. */
export function forgetBeginnings(): void {
  reached.clear();
}
