// Viewport width rules: spec §9 desktop breakpoint (≥ 768 px), read reactively.
import { useSyncExternalStore } from 'react';

export const DESKTOP_MIN_WIDTH = 768;
const QUERY = `(min-width: ${DESKTOP_MIN_WIDTH}px)`;

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function isDesktopWidth(): boolean {
  return window.matchMedia(QUERY).matches;
}

export function useIsDesktop(): boolean {
  return useSyncExternalStore(subscribe, isDesktopWidth, () => true);
}
