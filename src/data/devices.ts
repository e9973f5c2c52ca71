// The signed-in person's devices (sessions): the list for Settings → Devices, signing one out, and signing
// out everywhere else (spec §7). Held in memory through remote-query.ts: it is only useful online.
import type { UserSession } from '../../schemas/protocol/index.ts';
import { requireConnection } from './client.ts';
import { invalidateRemote, type RemoteState, useRemoteQuery } from './remote-query.ts';

const KEY = 'user-sessions';

/** The caller's live sessions, most recently active first; `current` marks this device. */
export function useDevices(): RemoteState<UserSession[]> {
  return useRemoteQuery(KEY, async () => {
    const { http } = await requireConnection();
    return (await http.call('sessions')).data;
  });
}

/** Signs one device out: its token stops working and its open connections close. */
export async function revokeDevice(sessionId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('revokeSession', { params: { sessionId } });
  await invalidateRemote(KEY);
}

/** Signs out every device but this one; resolves with how many were signed out. */
export async function revokeOtherDevices(): Promise<number> {
  const { http } = await requireConnection();
  const res = await http.call('revokeOtherSessions');
  await invalidateRemote(KEY);
  return res.revoked;
}
