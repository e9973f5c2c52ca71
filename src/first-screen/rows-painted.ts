// Whether this page has painted a channel's first rows yet: what waits for them (the editor, the largest
// script of the channel route) starts loading after them, so a slow phone spends its first seconds on
// the rows. Nothing waits forever: after LATEST_MS it loads all the same (a first sync that takes long).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { CHANNEL_PATH } from './frame.ts';

const LATEST_MS = 10_000;

let painted = false;
const listeners = new Set<() => void>();

/**
 * The message list has rendered rows (or found none). The rest may load once the frame holding them has
 * been produced: the second animation frame from now starts only after that one.
 */
export function announceRowsPainted(): void {
  if (painted) return;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if (painted) return;
      painted = true;
      for (const listener of listeners) listener();
    }),
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Runs `run` once the first rows are painted, or LATEST_MS from now (outside React); at once on a page
 * opened anywhere but a channel, which has no rows to wait for.
 */
export function afterFirstRows(run: () => void): void {
  if (painted || !CHANNEL_PATH.test(location.pathname)) {
    run();
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    listeners.delete(once);
    window.clearTimeout(timer);
    run();
  };
  const timer = window.setTimeout(once, LATEST_MS);
  listeners.add(once);
}

/** True once the first rows are painted, or LATEST_MS after the caller first rendered. */
export function useAfterFirstRows(): boolean {
  const rows = useSyncExternalStore(subscribe, () => painted);
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (rows) return;
    const timer = window.setTimeout(() => setLate(true), LATEST_MS);
    return () => window.clearTimeout(timer);
  }, [rows]);
  return rows || late;
}
