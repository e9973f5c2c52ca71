// Whether this page has painted a channel's first rows yet: what waits for them (the editor, the largest
// script of the channel route) starts loading after them, so a slow phone spends its first seconds on
// the rows. Nothing waits for them once the person does something (a tap or a key: they want a menu or
// the composer now), and nothing waits forever: after LATEST_MS it loads all the same (a first sync that
// takes long, a channel with nothing to show).
import { useEffect, useState, useSyncExternalStore } from 'react';
import { CHANNEL_PATH } from './frame.ts';

/** A first visit of a 3,000-message channel showed its rows after 7–12 s on a 4× slowed CPU (bench:client). */
const LATEST_MS = 30_000;
/** The Element Timing name the message list gives its first shown rows (see announceRowsPainted). */
export const FIRST_ROWS_TIMING = 'first-rows';
/** How long a report of the rows' presentation is waited for before the frames stand in for it. */
const PRESENTED_LATEST_MS = 1_500;

let painted = false;
let announced = false;
const listeners = new Set<() => void>();

function rowsPainted(): void {
  if (painted) return;
  painted = true;
  for (const listener of listeners) listener();
}

/**
 * The message list has shown rows (or found none), their elements marked FIRST_ROWS_TIMING. The rest may
 * load once the browser reports them presented (Element Timing): a frame's work on the main thread ends
 * well before a phone has rastered and shown it, and the scripts asked for meanwhile arrived first. Where
 * the browser reports nothing (no Element Timing, a row without text), the second animation frame from
 * now, which starts only after the one holding the rows was produced, stands in.
 */
export function announceRowsPainted(): void {
  if (painted || announced) return;
  announced = true;
  const framed = () => requestAnimationFrame(() => requestAnimationFrame(rowsPainted));
  if (!PerformanceObserver.supportedEntryTypes?.includes('element')) {
    framed();
    return;
  }
  const observer = new PerformanceObserver((list) => {
    // PerformanceElementTiming, which TypeScript's DOM types do not have yet.
    const entries = list.getEntries() as (PerformanceEntry & { identifier?: string })[];
    if (!entries.some((entry) => entry.identifier === FIRST_ROWS_TIMING)) return;
    observer.disconnect();
    rowsPainted();
  });
  observer.observe({ type: 'element', buffered: true });
  window.setTimeout(() => {
    observer.disconnect();
    framed();
  }, PRESENTED_LATEST_MS);
}

/**
 * The list has no rows to show (a channel never written in, or one whose every message was deleted):
 * nothing is coming to wait for, so the rest loads after the frame that draws the channel's intro.
 */
export function announceNoRows(): void {
  if (painted || announced) return;
  announced = true;
  requestAnimationFrame(() => requestAnimationFrame(rowsPainted));
}

if (typeof window !== 'undefined' && CHANNEL_PATH.test(location.pathname)) {
  const acted = () => {
    removeEventListener('pointerdown', acted, true);
    removeEventListener('keydown', acted, true);
    rowsPainted();
  };
  addEventListener('pointerdown', acted, true);
  addEventListener('keydown', acted, true);
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
