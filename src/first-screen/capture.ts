// The app's side of the first screen: it takes the picture of a channel screen once the list has settled
// (and when the page is hidden), and removes the boot script's picture once it has painted the screen
// itself. The picture is the markup of the app root: what this device already showed, nothing fetched.
import { useEffect, useRef } from 'react';
import { CHANNEL_PATH, dismissFirstScreen, FIRST_SCREEN_ID, isDismissed } from './frame.ts';
import { readFirstScreen, saveFirstScreen } from './store.ts';

export { dismissFirstScreen };

/** Left out of the picture: ids would be duplicated, and test hooks and states belong to the live screen. */
const DROPPED_ATTRIBUTES = [
  'id',
  'data-testid',
  'data-status',
  'data-message-id',
  'aria-controls',
  'aria-labelledby',
];
/** How long the list stays still before its picture is taken. */
const SETTLE_MS = 1500;

/**
 * Whether the screen may differ from the last picture this page took. A reload takes the picture as the
 * page is hidden, before the next page can start; when nothing changed since the picture taken once the
 * list was still, that work (about 15 ms on a slow phone) is skipped.
 */
let changed = true;
const markChanged = () => {
  changed = true;
  watcher?.disconnect();
};
/** Watches the root from one picture to the first change after it, then stops watching. */
let watcher: MutationObserver | undefined;

/**
 * Scroll positions as their scroll events reported them. Reading every element's scrollTop when the
 * picture is taken forced a layout of the whole page, often as it was being hidden for a reload; here
 * each is read when the browser scrolls it, where the frame lays the page out anyway.
 */
const scrolledTo = new Map<Element, number>();
// From the app's start, so that a list or sidebar scrolled before the channel view mounted is known.
document.addEventListener(
  'scroll',
  (event) => {
    if (event.target instanceof HTMLElement) scrolledTo.set(event.target, event.target.scrollTop);
    // A scroll changes the picture (its marked positions) without changing the markup.
    markChanged();
  },
  { capture: true, passive: true },
);
const SCROLL_MARK = 'data-scroll-top';

function takePicture(): void {
  const root = document.getElementById('root');
  if (!root || !CHANNEL_PATH.test(location.pathname) || document.getElementById(FIRST_SCREEN_ID)) return;
  if (!changed) return;
  // Marked on the live elements for the copy to carry, and taken off again at once.
  const marked: Element[] = [];
  for (const [el, top] of scrolledTo) {
    if (!el.isConnected) scrolledTo.delete(el);
    else if (top > 0 && root.contains(el)) {
      el.setAttribute(SCROLL_MARK, String(top));
      marked.push(el);
    }
  }
  const copy = root.cloneNode(true) as HTMLElement;
  for (const el of marked) el.removeAttribute(SCROLL_MARK);
  for (const el of copy.querySelectorAll('*'))
    for (const name of DROPPED_ATTRIBUTES) el.removeAttribute(name);
  // Object URLs die with the page: such an image would show as broken.
  for (const img of copy.querySelectorAll('img[src^="blob:"]')) img.removeAttribute('src');
  const html = copy.innerHTML;
  const kept = readFirstScreen(location.pathname);
  if (kept?.html !== html || kept.width !== innerWidth)
    saveFirstScreen({ path: location.pathname, html, width: innerWidth, savedAt: Date.now() });
  changed = false;
  watcher ??= new MutationObserver(markChanged);
  watcher.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
}

/**
 * For the channel's message list: `painted()` after it has rendered rows (or found none) removes the
 * boot picture on the next frame and schedules a new picture once the list is still.
 */
export function useFirstScreen(): { painted: () => void } {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') takePicture();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.clearTimeout(timer.current);
    };
  }, []);
  return {
    painted: () => {
      // The list calls this on every render of its rows; the picture goes once.
      if (!isDismissed() || document.getElementById(FIRST_SCREEN_ID))
        requestAnimationFrame(dismissFirstScreen);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(takePicture, SETTLE_MS);
    },
  };
}
