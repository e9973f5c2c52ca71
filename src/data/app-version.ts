// Whether this tab runs the build the server serves (decision 0043). 'newer': the server serves another
// build (a deploy happened; polled from GET /api/version or said by the socket): a reload gets it.
// 'outdated': the server no longer answers this build's protocol (a 426, a refused socket), or a newer
// build's worker retired ours: only a reload helps. Neither clears by itself.
import { useSyncExternalStore } from 'react';

export type AppVersionState = 'current' | 'newer' | 'outdated';

let state: AppVersionState = 'current';
const listeners = new Set<() => void>();

function set(next: AppVersionState): void {
  if (state === next || state === 'outdated') return;
  state = next;
  for (const listener of listeners) listener();
}

export function markOutdated(): void {
  set('outdated');
}

/** This tab's build id (vite.config.ts); null in development, where the server's dist/ may be any build. */
export function ownBuildId(): string | null {
  if (!import.meta.env.PROD) return null;
  return typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : null;
}

/** The server named the build it serves; another build than ours means a new version is available. */
export function noteServerBuild(serverBuild: string | null, own: string | null = ownBuildId()): void {
  if (serverBuild && own && serverBuild !== own) set('newer');
}

export function appVersionState(): AppVersionState {
  return state;
}

/** Hears every change of the state; returns the unsubscribe. */
export function subscribeAppVersion(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAppVersion(): AppVersionState {
  return useSyncExternalStore(subscribeAppVersion, () => state);
}

/** Whether the tab should offer a reload: a newer build, or an outdated one. */
export function useOutdated(): boolean {
  return useAppVersion() !== 'current';
}
