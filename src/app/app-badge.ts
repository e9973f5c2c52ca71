// The app badge (Badging API, where supported: installed apps on desktop Chromium, iOS 16.4+ home-screen
// apps): the person's unread total across every workspace in the store, muted channels left out (the same
// count the server puts in each push for the service worker, server/push/unread-total.ts). Set whenever the
// total changes, cleared at zero and when the signed-in app goes away (sign-out).
import { useEffect } from 'react';
import { useStoreRead } from '../data/store-reads.ts';

type BadgingNavigator = Navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

function showBadge(n: number): void {
  const nav = navigator as BadgingNavigator;
  // Refused where the app is not installed or badges are off: nothing to tell the person.
  void (n > 0 ? nav.setAppBadge?.(n) : nav.clearAppBadge?.())?.catch(() => undefined);
}

export function useAppBadge(): void {
  const total = useStoreRead('unreadTotal', {});
  useEffect(() => {
    if (total !== undefined) showBadge(total);
  }, [total]);
  useEffect(() => () => showBadge(0), []);
}
