// Remembers the last opened channel of each workspace so '/' can return to it (spec §2 routing rules), and
// the few opened before it, newest first, for the quick switcher's "Recent". Pointers, not data: the
// channels live in the store; a stale pointer is simply ignored.
const key = (institutionId: string) => `lantern:lastChannel:${institutionId}`;
const recentKey = (institutionId: string) => `lantern:recentChannels:${institutionId}`;
const RECENT_MAX = 8;

export function rememberLastChannel(institutionId: string, channelId: string): void {
  try {
    localStorage.setItem(key(institutionId), channelId);
    const recent = [channelId, ...recentChannelsOf(institutionId).filter((id) => id !== channelId)];
    localStorage.setItem(recentKey(institutionId), JSON.stringify(recent.slice(0, RECENT_MAX)));
  } catch {
    // Storage may be full or blocked (private mode); losing the pointer only costs one click.
  }
}

export function lastChannelOf(institutionId: string): string | null {
  try {
    return localStorage.getItem(key(institutionId));
  } catch {
    return null;
  }
}

/** Channels opened lately in this workspace, newest first. */
export function recentChannelsOf(institutionId: string): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(recentKey(institutionId)) ?? '[]');
    return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function forgetLastChannel(institutionId: string): void {
  try {
    localStorage.removeItem(key(institutionId));
  } catch {
    // See rememberLastChannel.
  }
}
