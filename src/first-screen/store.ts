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

/**
 * Each picture under a key of its own, so a new picture writes only itself (in one array, every picture
 * was stringified and written again, up to six of 400 k characters) and a reload reads only the one it
 * shows.
 */
const PICTURE_PREFIX = 'lantern.firstScreen:';
/** Which pictures are kept, newest first: { path, savedAt } only. */
const INDEX_KEY = 'lantern.firstScreenIndex';
/** Where every picture used to be kept, in one array (before the keys above): removed on the next write. */
const LEGACY_KEY = 'lantern.firstScreens';
/** Channels remembered; the oldest picture goes first. */
const KEEP = 6;
/** A picture larger than this (characters) is not kept: it would crowd out the others. */
const MAX_HTML = 400_000;
/** Set from sign-out until the next sign-in: a picture timer still running on the way out must not keep one. */
let closed = false;

type Kept = Pick<FirstScreen, 'path' | 'savedAt'>;

function readIndex(): Kept[] {
  try {
    const raw = localStorage.getItem(INDEX_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as Kept[]) : [];
  } catch {
    return [];
  }
}

export function readFirstScreen(path: string): FirstScreen | undefined {
  try {
    const raw = localStorage.getItem(PICTURE_PREFIX + path);
    const parsed = raw ? (JSON.parse(raw) as FirstScreen) : undefined;
    return parsed?.path === path && typeof parsed.html === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function saveFirstScreen(screen: FirstScreen): void {
  if (closed || screen.html.length > MAX_HTML) return;
  try {
    localStorage.removeItem(LEGACY_KEY);
    const kept = [
      { path: screen.path, savedAt: screen.savedAt },
      ...readIndex().filter((s) => s.path !== screen.path),
    ].sort((a, b) => b.savedAt - a.savedAt);
    for (const old of kept.splice(KEEP)) localStorage.removeItem(PICTURE_PREFIX + old.path);
    const value = JSON.stringify(screen);
    // Full storage drops the oldest other pictures until the new one fits, or gives up quietly.
    for (;;) {
      try {
        localStorage.setItem(PICTURE_PREFIX + screen.path, value);
        break;
      } catch (error) {
        const oldest = kept.length > 1 ? kept.pop() : undefined;
        if (!oldest) throw error;
        localStorage.removeItem(PICTURE_PREFIX + oldest.path);
      }
    }
    localStorage.setItem(INDEX_KEY, JSON.stringify(kept));
  } catch {
    // Storage unavailable or full: the next reload paints without a picture, as on a first visit.
  }
}

/** Sign-out: deletes the pictures and keeps none until `openFirstScreens` (the next sign-in). */
export function clearFirstScreens(): void {
  closed = true;
  try {
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
    for (const key of keys) if (key?.startsWith(PICTURE_PREFIX)) localStorage.removeItem(key);
    localStorage.removeItem(INDEX_KEY);
    localStorage.removeItem(LEGACY_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** Sign-in: pictures of this person's channels may be kept again. */
export function openFirstScreens(): void {
  closed = false;
}
