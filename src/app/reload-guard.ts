// Spec §9 reload guard: a lazy chunk that fails to load (a deploy removed it, the network dropped it) is
// most often fixed by loading the page again, which fetches the current build. The page reloads once;
// a sessionStorage timestamp keeps a second failure within 10 s from reloading again, so a chunk that is
// really gone shows the error screen instead of a reload loop.

/** Spec §9: reload-guard time-to-live. */
export const RELOAD_GUARD_TTL_MS = 10_000;
export const RELOAD_GUARD_KEY = 'lantern:reload-guard';

export interface ReloadGuardDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
  reload: () => void;
}

const browser = (): ReloadGuardDeps => ({
  storage: window.sessionStorage,
  now: Date.now,
  reload: () => window.location.reload(),
});

let reloading = false;

/**
 * Reloads the page unless it already did so for a failed chunk within the last 10 s. True when it
 * reloads (the caller waits for the page to go), false when the guard tripped (the caller shows the error).
 */
export function reloadForFailedChunk(deps: ReloadGuardDeps = browser()): boolean {
  if (reloading) return true;
  let last = Number.NaN;
  try {
    last = Number(deps.storage.getItem(RELOAD_GUARD_KEY));
  } catch {
    // Storage blocked: without a guard a reload could loop, so do not reload at all.
    return false;
  }
  const now = deps.now();
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_TTL_MS) return false;
  try {
    deps.storage.setItem(RELOAD_GUARD_KEY, String(now));
  } catch {
    return false;
  }
  reloading = true;
  deps.reload();
  return true;
}

/** A lazy import with the guard: on failure the page reloads once, or the error goes on to the error screen. */
export async function loadChunk<M>(load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (error) {
    console.warn('A part of the app could not be loaded', error);
    if (reloadForFailedChunk()) return new Promise<M>(() => {});
    throw error;
  }
}

/** Vite reports a failed preload of a chunk's dependencies here; the import itself lands in loadChunk. */
export function installReloadGuard(): void {
  window.addEventListener('vite:preloadError', (event) => {
    console.warn(
      'A part of the app could not be preloaded',
      (event as Event & { payload?: unknown }).payload,
    );
    // Not preventDefault(): the import still fails, and loadChunk or the error screen takes it from there.
    reloadForFailedChunk();
  });
}
