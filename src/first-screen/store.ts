// Where the last picture of each channel screen is kept: localStorage, because the boot script must read
// it synchronously — before the app's script is evaluated, which on a slow phone is one long task that
// an IndexedDB answer would queue behind. It holds what this device already showed the signed-in
// person, a few channels at most, and is cleared with the rest of their data at sign-out.

export interface FirstScreen {
  /** The location it shows: /client/:clientId/channel/:channelId. */
  path: string;
  /** The app root's markup as it was painted, with scroll positions marked (see capture.ts). */
  html: string;
  /** Viewport width when taken: a picture taken on the other side of the desktop breakpoint is not shown. */
  width: number;
  savedAt: number;
}

const KEY = 'lantern.firstScreens';
/** Channels remembered; the oldest picture goes first. */
const KEEP = 6;
/** A picture larger than this (characters) is not kept: it would crowd out the others. */
const MAX_HTML = 400_000;
/** Set from sign-out until the next sign-in: a picture timer still running on the way out must not keep one. */
let closed = false;

function readAll(): FirstScreen[] {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as FirstScreen[]) : [];
  } catch {
    return [];
  }
}

export function readFirstScreen(path: string): FirstScreen | undefined {
  return readAll().find((s) => s.path === path);
}

export function saveFirstScreen(screen: FirstScreen): void {
  if (closed || screen.html.length > MAX_HTML) return;
  const screens = [screen, ...readAll().filter((s) => s.path !== screen.path)]
    .sort((a, b) => b.savedAt - a.savedAt)
    .slice(0, KEEP);
  // Full storage drops the oldest pictures until the new one fits, or gives up quietly.
  while (screens.length > 0) {
    try {
      localStorage.setItem(KEY, JSON.stringify(screens));
      return;
    } catch {
      screens.pop();
    }
  }
}

/** Sign-out: deletes the pictures and keeps none until `openFirstScreens` (the next sign-in). */
export function clearFirstScreens(): void {
  closed = true;
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** Sign-in: pictures of this person's channels may be kept again. */
export function openFirstScreens(): void {
  closed = false;
}
