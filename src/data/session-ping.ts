// "This device is open": PUT /api/users/sessions/ping when the app starts, when it comes back into view,
// and every 5 minutes while it is visible, so Settings → Devices shows a true "last active" even for a
// device that only reads. The ping carries the device id, so a session opened by any kind of sign-in
// learns it. A hidden tab does not ping: an open but forgotten tab is not activity.
import type { Http } from '../store/http.ts';
import { deviceId } from './device-id.ts';

/** Matches the server's SESSION_TOUCH_INTERVAL_MS: pinging more often would change nothing. */
export const SESSION_PING_INTERVAL_MS = 5 * 60_000;

/** Starts pinging; `pingNow` is for a session that just began (any kind of sign-in). */
export function installSessionPing(
  http: Http,
  hasSession: () => Promise<boolean>,
  intervalMs = SESSION_PING_INTERVAL_MS,
): { stop: () => void; pingNow: () => void } {
  let lastPing = 0;
  const ping = async (force: boolean) => {
    if (document.visibilityState === 'hidden') return;
    if (!force && Date.now() - lastPing < intervalMs) return;
    if (!(await hasSession())) return;
    lastPing = Date.now();
    const sessionClientId = (await deviceId()) ?? undefined;
    // A failed ping is harmless (offline, signed out meanwhile): the next one tries again.
    await http.call('pingSession', { body: { sessionClientId } }).catch(() => undefined);
  };
  const onVisibility = () => void ping(false);
  document.addEventListener('visibilitychange', onVisibility);
  const timer = setInterval(() => void ping(false), intervalMs);
  void ping(true);
  return {
    pingNow: () => void ping(true),
    stop: () => {
      document.removeEventListener('visibilitychange', onVisibility);
      clearInterval(timer);
    },
  };
}
