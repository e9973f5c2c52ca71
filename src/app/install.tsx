// Install prompts of the root shell (spec §4, §9): the browser's install offer as a long-lived toast,
// dismissed for good when cancelled, and the iOS add-to-home-screen tutorial dialog.
import { BookOpen, ChevronLeft, ChevronRight, Copy, Share, SquarePlus, Star } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Dialog } from '../components/ui/dialog.tsx';
import { useSession } from '../data/session.ts';
import { updateSettings, useSettings, useStoredSettings } from '../data/settings.ts';
import {
  type BeforeInstallPromptEvent,
  catchInstallOffers,
  installOffer,
  onInstallOffer,
} from './install-offer.ts';
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

/** Opens on load only on iPhone/iPad/iPod, outside the installed app, while the setting allows it. */
export function IosInstallDialog() {
  const settings = useSettings();
  const open = settings.showIosAddToScreenTutorial && isIosBrowser() && !isStandalone();
  const close = () => void updateSettings({ showIosAddToScreenTutorial: false }).catch(() => {});
  const steps = [
    {
      key: 'share',
      body: (
        <>
          Tap <Share className="inline size-4 align-text-bottom" aria-label="Share" /> Share in the toolbar.
        </>
      ),
      picture: <ShareButtonPicture />,
    },
    {
      key: 'add',
      body: (
        <>
          Choose <SquarePlus className="inline size-4 align-text-bottom" aria-hidden /> Add to Home Screen.
        </>
      ),
      picture: <AddToHomeScreenPicture />,
    },
    { key: 'rename', body: <>Optionally rename it.</> },
    { key: 'confirm', body: <>Tap Add.</> },
  ];
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      title={`Add ${APP_NAME} to Your Home Screen`}
      description="It opens like an app and keeps working on a poor connection."
    >
      <ol className="flex flex-col gap-2 pt-2 text-sm">
        {steps.map((step, i) => (
          <li key={step.key} className="flex gap-3">
            <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-accent-soft text-xs font-semibold text-accent-fg">
              {i + 1}
            </span>
            <span className="flex min-w-0 flex-1 flex-col gap-2">
              <span>{step.body}</span>
              {'picture' in step ? step.picture : null}
            </span>
          </li>
        ))}
      </ol>
      <div className="mt-4 flex justify-end">
        <Button onClick={close}>Got it</Button>
      </div>
    </Dialog>
  );
}

/** Safari's bottom toolbar with the Share button picked out: what step 1 looks like on the phone. */
function ShareButtonPicture() {
  return (
    <span
      aria-hidden
      className="flex h-11 items-center justify-around rounded-lg border border-line bg-surface-2 px-3 text-muted"
    >
      <ChevronLeft className="size-5" />
      <ChevronRight className="size-5 opacity-50" />
      <span className="flex size-8 items-center justify-center rounded-full bg-accent-soft text-accent-fg ring-2 ring-accent">
        <Share className="size-5" />
      </span>
      <BookOpen className="size-5" />
      <Copy className="size-5" />
    </span>
  );
}

/** The share sheet's row, as step 2 asks to find it. */
function AddToHomeScreenPicture() {
  return (
    <span
      aria-hidden
      className="flex flex-col overflow-hidden rounded-lg border border-line bg-surface-2 text-[13px]"
    >
      <span className="flex items-center justify-between px-3 py-2 text-muted">
        Add to Favourites <Star className="size-4" />
      </span>
      <span className="flex items-center justify-between border-t border-line bg-accent-soft px-3 py-2 font-medium text-accent-fg">
        Add to Home Screen <SquarePlus className="size-4" />
      </span>
    </span>
  );
}
