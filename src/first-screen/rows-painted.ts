// Whether this page has painted a channel's first rows yet: what waits for them (the editor, the largest
// script of the channel route) starts loading after them, so a slow phone spends its first seconds on
// the rows. Nothing waits forever: after LATEST_MS it loads all the same (a first sync that takes long).
import { useEffect, useState, useSyncExternalStore } from 'react';

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
