// Install prompts of the root shell (spec §4, §9): the browser's install offer as a long-lived toast,
// dismissed for good when cancelled, and the iOS add-to-home-screen tutorial dialog (its own chunk,
// ios-install-dialog.tsx, loaded only where it opens).
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../data/session.ts';
import { updateSettings, useStoredSettings } from '../data/settings.ts';
import {
  type BeforeInstallPromptEvent,
  catchInstallOffers,
  installOffer,
  onInstallOffer,
} from './install-offer.ts';
import { loadChunk } from './reload-guard.ts';
import { APP_NAME } from './title.ts';
import { toast } from './toast.ts';

export const INSTALL_TOAST_DURATION_MS = 999_999;

catchInstallOffers();

/**
 * Offers installation once the browser says it can, but only to someone signed in and on an app page
 * (never over the sign-in page), once this device's stored settings have loaded: before that the
 * defaults say "not dismissed", which is how a cancelled offer came back on every reload (issue 15
 * item 3). A cancel is remembered on this device. The toast sits bottom-right (spec §9's default
 * position), away from screen headers, and styles.css hides it while a dialog is open.
 */
export function useInstallPrompt(): void {
  const stored = useStoredSettings();
  const settingsLoaded = stored !== undefined;
  const dismissed = stored?.installPromptDismissed === true;
  const session = useSession();
  const { pathname } = useLocation();
  const onAppPage = !/^\/(signin|lti\/|account-deletion)/.test(pathname);
  const [offer, setOffer] = useState<BeforeInstallPromptEvent | null>(installOffer);
  const shown = useRef(false);
  // Taken away by the app (sign-out), not by the person: that is no answer to remember.
  const withdrawing = useRef(false);

  useEffect(() => {
    // An offer made between the first render and this effect is taken too.
    setOffer(installOffer());
    return onInstallOffer(setOffer);
  }, []);

  useEffect(() => {
    if (!offer || shown.current || !settingsLoaded || dismissed || !session || !onAppPage) return;
    shown.current = true;
    toast(`Install ${APP_NAME}`, {
      id: INSTALL_TOAST_ID,
      description: 'Install the app for a better experience!',
      duration: INSTALL_TOAST_DURATION_MS,
      position: 'bottom-right',
      className: 'install-toast',
      action: {
        label: 'Install',
        onClick: () => {
          void offer.prompt().then(async () => {
            const choice = await offer.userChoice;
            if (choice.outcome === 'dismissed') await updateSettings({ installPromptDismissed: true });
          });
        },
      },
      onDismiss: () => {
        if (withdrawing.current) return;
        void updateSettings({ installPromptDismissed: true }).catch(() => {});
      },
    });
  }, [offer, settingsLoaded, dismissed, session, onAppPage]);

  // Signing out (or landing on the sign-in page) takes an offer that is showing away; it may come back.
  useEffect(() => {
    if (shown.current && (!session || !onAppPage)) {
      withdrawing.current = true;
      toast.dismiss(INSTALL_TOAST_ID);
      shown.current = false;
      window.setTimeout(() => {
        withdrawing.current = false;
      }, 1000);
    }
  }, [session, onAppPage]);
}

const INSTALL_TOAST_ID = 'install-offer';

function isIosBrowser(): boolean {
  const iPadOs = navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1;
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || iPadOs;
}

function isStandalone(): boolean {
  const nav = navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || window.matchMedia('(display-mode: standalone)').matches;
}

const IosInstallTutorial = lazy(async () => ({
  default: (await loadChunk(() => import('./ios-install-dialog.tsx'))).IosInstallTutorial,
}));

/**
 * Opens on load only (spec §4): on iPhone/iPad/iPod, outside the installed app, when the stored setting
 * allows it. Decided once, when this device's stored settings have loaded: before that the defaults say
 * "show", which would open it for a moment on every load after it was closed; and a setting switched on
 * later (Settings) waits for the next load rather than opening over the settings screen.
 */
export function IosInstallDialog() {
  const stored = useStoredSettings();
  const [open, setOpen] = useState<boolean | null>(null);
  if (open === null && stored !== undefined)
    setOpen(stored.showIosAddToScreenTutorial && isIosBrowser() && !isStandalone());
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <IosInstallTutorial
        onClose={() => {
          setOpen(false);
          void updateSettings({ showIosAddToScreenTutorial: false }).catch(() => {});
        }}
      />
    </Suspense>
  );
}
