// The browser's install offer (`beforeinstallprompt`), caught from the page's first script: the browser
// makes it once, after the page has loaded, which on a slow phone comes before the app's own scripts have
// run (the boot script loads them after painting its picture), and an offer nobody heard is not made
// again. src/app/install.tsx shows it as the install toast.

export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let caught: BeforeInstallPromptEvent | null = null;
let catching = false;
const listeners = new Set<(offer: BeforeInstallPromptEvent) => void>();

/** Starts listening (once per page): the boot script calls it first, the app again for pages without it. */
export function catchInstallOffers(): void {
  if (catching || typeof window === 'undefined') return;
  catching = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Kept for the app's toast instead of the browser's own mini-infobar.
    event.preventDefault();
    caught = event as BeforeInstallPromptEvent;
    for (const listener of listeners) listener(caught);
  });
}

/** The offer made so far on this page, if any. */
export function installOffer(): BeforeInstallPromptEvent | null {
  return caught;
}

/** Hears each offer made from now on. */
export function onInstallOffer(listener: (offer: BeforeInstallPromptEvent) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
