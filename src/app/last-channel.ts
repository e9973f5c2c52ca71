// Remembers the last opened channel of each workspace so '/' can return to it (spec §2 routing rules).
// A pointer, not data: the channel itself lives in the store; a stale pointer is simply ignored.
const key = (institutionId: string) => `lantern:lastChannel:${institutionId}`;

export function rememberLastChannel(institutionId: string, channelId: string): void {
  try {
    localStorage.setItem(key(institutionId), channelId);
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

export function forgetLastChannel(institutionId: string): void {
  try {
    localStorage.removeItem(key(institutionId));
  } catch {
    // See rememberLastChannel.
  }
}
