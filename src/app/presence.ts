// Who is online, kept apart from the workspace context. Presence is the member data that changes most
// often (a colleague's socket coming or going), and the context is read by the layout, the sidebar and
// every message row: when it held the online state, one colleague connecting re-rendered about 450
// components. Here each presence dot subscribes to its own member and re-renders alone.
import { useCallback, useSyncExternalStore } from 'react';

const online = new Map<string, boolean>();
const listeners = new Map<string, Set<() => void>>();

/** The members' online state as the store holds it; only the dots whose member changed are told. */
export function publishPresence(members: readonly { id: string; user: { isOnline?: boolean } }[]): void {
  for (const member of members) {
    const now = member.user.isOnline === true;
    if (online.get(member.id) === now) continue;
    online.set(member.id, now);
    for (const listener of listeners.get(member.id) ?? []) listener();
  }
}

/** Whether a member is online: undefined until the workspace's member list has been read. */
export function useOnline(memberId: string | null | undefined): boolean | undefined {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!memberId) return () => {};
      let set = listeners.get(memberId);
      if (!set) {
        set = new Set();
        listeners.set(memberId, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(memberId);
      };
    },
    [memberId],
  );
  return useSyncExternalStore(subscribe, () => (memberId ? online.get(memberId) : undefined));
}
