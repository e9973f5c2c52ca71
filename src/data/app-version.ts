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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Makes `call` to this tab's worker and says whether it answered before the tab turned outdated: a newer
 * build's worker retires ours, whose calls then never answer. An outdated tab makes no call (false); a call
 * that fails first rejects as it does.
 */
export function answeredBeforeOutdated(call: () => Promise<unknown>): Promise<boolean> {
  if (state === 'outdated') return Promise.resolve(false);
  const answer = call();
  // Not left unhandled should the tab turn outdated first and the call still fail later.
  answer.catch(() => undefined);
  return new Promise<boolean>((resolve, reject) => {
    const settle = (done: () => void) => {
      stop();
      done();
    };
    const stop = subscribe(() => {
      if (state === 'outdated') settle(() => resolve(false));
    });
    answer.then(
      () => settle(() => resolve(true)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

export function useAppVersion(): AppVersionState {
  return useSyncExternalStore(subscribe, () => state);
}

/** Whether the tab should offer a reload: a newer build, or an outdated one. */
export function useOutdated(): boolean {
  return useAppVersion() !== 'current';
}
