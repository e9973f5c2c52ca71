// The colour theme (issue 15 item 7): the system's, or light or dark whatever the system says. Kept in
// localStorage rather than the store, because it must be on the page before the first paint: the boot
// script (src/first-screen/paint.ts) applies it before anything is drawn, and the store opens later. It
// belongs to the device, like the other local settings, and follows across tabs (storage events). No
// React here: the boot script imports this file and must stay small.

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const KEY = 'lantern.theme';

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system'; // storage refused (private mode, policy): the system's theme
  }
}

/** The browser's bar above the page, as the theme colours of spec §9: 244,244,244 and 24,24,27. */
const BAR_COLOURS = { light: '#f4f4f4', dark: '#18181b' } as const;

/**
 * Sets the page's data-theme, which styles.css reads (none means the system's colour scheme), and the
 * browser bar's colour with it: the page's two theme-color tags follow the system's scheme, so a choice
 * of light or dark gives both its own colour.
 */
export function applyTheme(choice: ThemeChoice = storedTheme()): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  for (const tag of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const scheme = tag.media.includes('dark') ? 'dark' : 'light';
    tag.content = BAR_COLOURS[choice === 'system' ? scheme : choice];
  }
}

const listeners = new Set<() => void>();

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Not kept, but this page still changes.
  }
  applyTheme(choice);
  for (const listener of listeners) listener();
}

/** Calls back when the choice changes, here or in another tab (for useSyncExternalStore). */
export function subscribeTheme(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab chose: this one follows.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== KEY && event.key !== null) return;
    applyTheme();
    listener();
  };
  addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    removeEventListener('storage', onStorage);
  };
}
