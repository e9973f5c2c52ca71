// The boot script, the page's only script tag: on a reload of a channel it paints the picture this
// device kept of that screen (store.ts) at once, then starts the app (its script is already being
// fetched: index.html preloads it). Waiting one frame before the app's script is evaluated lets the
// picture reach the screen first; on a slow phone that evaluation alone is a long task, and the app's
// own first rows come after its store has opened. The picture is inert and hidden from assistive
// technology; the app removes it as soon as it has painted the channel itself (capture.ts).

import { catchInstallOffers } from '../app/install-offer.ts';
import { applyTheme } from '../app/theme.ts';
import {
  CHANNEL_PATH,
  DESKTOP_MIN_WIDTH,
  dismissFirstScreen,
  FIRST_SCREEN_ID,
  isDismissed,
} from './frame.ts';
import { readFirstScreen } from './store.ts';

// The chosen theme before anything is drawn, the picture included.
applyTheme();
// The browser's install offer can come before the app has loaded (src/app/install-offer.ts).
catchInstallOffers();

/** Longer than a slow phone takes to start the app offline. */
const GIVE_UP_MS = 15_000;
/** A hidden tab gets no animation frames: the app starts after this all the same. */
const FRAME_WAIT_MS = 100;

/** Paints the picture of this location, if one was kept at this layout; says whether it did. */
function paint(): boolean {
  if (!CHANNEL_PATH.test(location.pathname)) return false;
  const screen = readFirstScreen(location.pathname);
  if (!screen || isDismissed()) return false;
  if (screen.width >= DESKTOP_MIN_WIDTH !== innerWidth >= DESKTOP_MIN_WIDTH) return false;
  const frame = document.createElement('div');
  frame.id = FIRST_SCREEN_ID;
  frame.inert = true;
  frame.setAttribute('aria-hidden', 'true');
  frame.innerHTML = screen.html;
  document.body.append(frame);
  for (const el of frame.querySelectorAll<HTMLElement>('[data-scroll-top]')) {
    el.scrollTop = Number(el.dataset.scrollTop);
  }
  // An app that cannot paint the channel (a store that will not open) must not stay hidden behind it.
  setTimeout(dismissFirstScreen, GIVE_UP_MS);
  return true;
}

let started = false;
function startApp(): void {
  if (started) return;
  started = true;
  const app = document.querySelector<HTMLMetaElement>('meta[name="lantern-app"]')?.content;
  if (app) void import(/* @vite-ignore */ app);
}

let painted = false;
try {
  painted = paint();
} catch {
  // A picture that cannot be read or shown is no reason not to start.
}
if (painted) {
  requestAnimationFrame(() => setTimeout(startApp, 0));
  setTimeout(startApp, FRAME_WAIT_MS);
} else {
  startApp();
}
