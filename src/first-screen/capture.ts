// The app's side of the first screen: it takes the picture of a channel screen once the list has settled
// (and when the page is hidden), and removes the boot script's picture once it has painted the screen
// itself. The picture is the markup of the app root: what this device already showed, nothing fetched.
import { useEffect, useRef } from 'react';
import { CHANNEL_PATH, dismissFirstScreen, FIRST_SCREEN_ID, isDismissed } from './frame.ts';
import { saveFirstScreen } from './store.ts';

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

function takePicture(): void {
  const root = document.getElementById('root');
  if (!root || !CHANNEL_PATH.test(location.pathname) || document.getElementById(FIRST_SCREEN_ID)) return;
  const copy = root.cloneNode(true) as HTMLElement;
  const live = root.querySelectorAll<HTMLElement>('*');
  const copied = copy.querySelectorAll<HTMLElement>('*');
  live.forEach((el, i) => {
    const twin = copied[i];
    if (twin && el.scrollTop > 0) twin.dataset.scrollTop = String(el.scrollTop);
  });
  for (const el of copied) for (const name of DROPPED_ATTRIBUTES) el.removeAttribute(name);
  // Object URLs die with the page: such an image would show as broken.
  for (const img of copy.querySelectorAll('img[src^="blob:"]')) img.removeAttribute('src');
  saveFirstScreen({ path: location.pathname, html: copy.innerHTML, width: innerWidth, savedAt: Date.now() });
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
