// The iOS add-to-home-screen tutorial (spec §4, §9): Safari has no install offer, so a dialog shows where
// Share and Add to Home Screen are. Loaded by install.tsx only on an iPhone or iPad that should see it.
import { BookOpen, ChevronLeft, ChevronRight, Copy, Share, SquarePlus, Star } from 'lucide-react';
import { Button } from '../components/ui/button.tsx';
import { Dialog } from '../components/ui/dialog.tsx';
import { APP_NAME } from './title.ts';

/** The tutorial's dialog, open while rendered; `onClose` turns the setting off. */
export function IosInstallTutorial({ onClose: close }: { onClose: () => void }) {
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
      open
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
