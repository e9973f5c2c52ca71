// Polls GET /api/version (decision 0043): every few minutes, when the window gets focus and when the
// network comes back. The served build feeds the "new version" banner (src/data/app-version.ts) and the
// route rules feed the router (route-rules.ts). The socket says the build too, on every connection
// (src/data/client.ts); polling covers a tab whose socket stays up across a deploy behind a balancer.
// Failures are only logged (spec §8: manifest or route rules cannot load).
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../schemas/protocol/version.ts';
import { noteServerBuild } from '../data/app-version.ts';
import { parseRouteRules, setRouteRules } from './route-rules.ts';

export const VERSION_POLL_MS = 5 * 60_000;

/** One look at the served build and its route rules. */
export async function checkServerVersion(): Promise<void> {
  const res = await fetch('/api/version', {
    headers: { [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
    cache: 'no-store',
  });
  if (!res.ok) throw new Error(`GET /api/version answered ${res.status}`);
  const body = (await res.json()) as { buildId?: unknown; routeRules?: unknown } | null;
  setRouteRules(parseRouteRules(body?.routeRules));
  noteServerBuild(typeof body?.buildId === 'string' ? body.buildId : null);
}

/** Starts polling; returns the stop function. */
export function watchServerVersion(): () => void {
  const check = () =>
    void checkServerVersion().catch((error: unknown) => console.warn('Version check failed', error));
  check();
  const timer = setInterval(check, VERSION_POLL_MS);
  window.addEventListener('focus', check);
  window.addEventListener('online', check);
  return () => {
    clearInterval(timer);
    window.removeEventListener('focus', check);
    window.removeEventListener('online', check);
  };
}
