// Install prompts of the root shell (spec §4, §9): the browser's install offer as a long-lived toast,
// dismissed for good when cancelled, and the iOS add-to-home-screen tutorial dialog.
import { Share, SquarePlus } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { Button } from '../components/ui/button.tsx';
import { Dialog } from '../components/ui/dialog.tsx';
import { updateSettings, useSettings } from '../data/settings.ts';
import { APP_NAME } from './title.ts';

export const INSTALL_TOAST_DURATION_MS = 999_999;

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Offers installation once the browser says it can; a cancel is remembered on this device. */
export function useInstallPrompt(): void {
  const settings = useSettings();
  const dismissed = useRef(settings.installPromptDismissed);
  dismissed.current = settings.installPromptDismissed;

  useEffect(() => {
    const onPrompt = (event: Event) => {
      event.preventDefault();
      if (dismissed.current) return;
      const install = event as BeforeInstallPromptEvent;
      toast(`Install ${APP_NAME}`, {
        description: 'Install the app for a better experience!',
        duration: INSTALL_TOAST_DURATION_MS,
        action: {
          label: 'Install',
          onClick: () => {
            void install.prompt().then(async () => {
              const choice = await install.userChoice;
              if (choice.outcome === 'dismissed') await updateSettings({ installPromptDismissed: true });
            });
          },
        },
        onDismiss: () => void updateSettings({ installPromptDismissed: true }).catch(() => {}),
      });
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    return () => window.removeEventListener('beforeinstallprompt', onPrompt);
  }, []);
}

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
    },
    {
      key: 'add',
      body: (
        <>
          Choose <SquarePlus className="inline size-4 align-text-bottom" aria-hidden /> Add to Home Screen.
        </>
      ),
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
            <span>{step.body}</span>
          </li>
        ))}
      </ol>
      <div className="mt-4 flex justify-end">
        <Button onClick={close}>Got it</Button>
      </div>
    </Dialog>
  );
}
