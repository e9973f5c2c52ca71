// Vite plugin: a toast is swiped away past 20 px (spec §9's swipe-dismiss threshold). Sonner fixes its own
// at 45 px in a module constant with no option to change it, so the build sets the constant. The build
// fails if the line is not where it was (a new sonner), rather than ship the old threshold unnoticed.
import type { Plugin } from 'vite';

/** Spec §9: how far a toast is dragged before letting go dismisses it. */
export const TOAST_SWIPE_THRESHOLD_PX = 20;
const SONNER = /\/node_modules\/sonner\/dist\/index\.m?js$/;
const CONSTANT = /const SWIPE_THRESHOLD = \d+;/;

/** Sonner's bundle with its swipe threshold set to the spec's. */
export function withSwipeThreshold(code: string): string {
  if (!CONSTANT.test(code))
    throw new Error('sonner no longer declares SWIPE_THRESHOLD: see scripts/toast-swipe.ts');
  return code.replace(CONSTANT, `const SWIPE_THRESHOLD = ${TOAST_SWIPE_THRESHOLD_PX};`);
}

export function toastSwipe(): Plugin {
  return {
    name: 'lantern-toast-swipe',
    enforce: 'pre',
    transform(code, id) {
      if (!SONNER.test(id.split('?')[0] ?? '')) return null;
      return { code: withSwipeThreshold(code), map: null };
    },
  };
}
