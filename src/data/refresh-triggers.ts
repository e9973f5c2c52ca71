// The tab's side of the spec §4 refresh rules: it listens for the DOM triggers (load, visible,
// back/forward-cache restore, resume, online) and asks the worker, forcing after > 5 min hidden.
import type { Remote } from 'comlink';
import type { RefreshTrigger, WorkerApi } from '../../worker/api.ts';
import { isLongAbsence } from '../store/refresh-throttle.ts';

export interface RefreshFailureHandlers {
  log?: (message: string, error: unknown) => void;
  /** Spec §8: the failure's message, for a toast in development, test and staging. */
  onFailure?: (message: string) => void;
}

export function installRefreshTriggers(
  worker: Remote<WorkerApi>,
  { log = console.warn, onFailure }: RefreshFailureHandlers = {},
): () => void {
  let hiddenAt: number | null = document.visibilityState === 'hidden' ? Date.now() : null;
  const fire = (trigger: RefreshTrigger) => {
    const force = isLongAbsence(hiddenAt, Date.now());
    hiddenAt = null;
    worker.refresh(trigger, force).catch((e: unknown) => {
      log('Refresh failed', e);
      onFailure?.(e instanceof Error ? e.message : String(e));
    });
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') hiddenAt = Date.now();
    else fire('visible');
  };
  const onPageShow = (e: PageTransitionEvent) => {
    if (e.persisted) fire('pageshow');
  };
  const onResume = () => fire('resume');
  const onOnline = () => fire('online');
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pageshow', onPageShow);
  document.addEventListener('resume', onResume);
  window.addEventListener('online', onOnline);
  fire('load');
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pageshow', onPageShow);
    document.removeEventListener('resume', onResume);
    window.removeEventListener('online', onOnline);
  };
}
