// A local store that cannot open (IndexedDB blocked, a newer or damaged database) ends in the error page
// with "Reset local data", not in an endless spinner (issue 16, decision 0043). Resetting loses what was
// not sent yet, so the page says how many unsent changes there are and asks once more before deleting.
import { TriangleAlert } from 'lucide-react';
import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import { Button } from '../components/ui/button.tsx';
import { dismissFirstScreen } from '../first-screen/frame.ts';
import { ErrorPage } from './error-screen.tsx';
import { countUnsent, resetLocalData } from './local-data.ts';

let failed = false;
const listeners = new Set<() => void>();

export function markStoreFailed(): void {
  if (failed) return;
  failed = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Renders the store-failure page instead of `children` once the store failed to open. */
export function StoreFailureGate({ children }: { children: ReactNode }) {
  const storeFailed = useSyncExternalStore(subscribe, () => failed);
  return storeFailed ? <StoreFailurePage /> : children;
}

export function unsentWarning(count: number | null): string {
  if (count === null) return 'Messages on this device that were not sent yet, if any, will be lost.';
  return `${count} unsent ${count === 1 ? 'message' : 'messages'} on this device will be lost.`;
}

type Step = 'start' | 'confirm' | 'resetting' | 'blocked';

function StoreFailurePage() {
  // undefined while counting; null when the count could not be read.
  const [unsent, setUnsent] = useState<number | null | undefined>(undefined);
  const [step, setStep] = useState<Step>('start');
  useEffect(() => {
    // The boot script's picture of a channel would otherwise stay over this page.
    dismissFirstScreen();
    void countUnsent().then(setUnsent);
  }, []);

  const reset = async () => {
    setStep('resetting');
    const outcome = await resetLocalData().catch((error: unknown) => {
      console.error('Local data could not be reset', error);
      return 'blocked' as const;
    });
    if (outcome === 'done') window.location.reload();
    else setStep('blocked');
  };
  const ask = () => {
    // Nothing to lose: no second question.
    if (unsent === 0) void reset();
    else setStep('confirm');
  };

  return (
    <ErrorPage
      status={500}
      description="Lantern could not open its data on this device. Resetting deletes this device's copy; your workspaces and sent messages stay on the server."
    >
      {step === 'confirm' ? (
        <div
          role="alert"
          className="mt-2 flex max-w-sm flex-col items-center gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-sm"
        >
          <p className="flex items-start gap-2 text-left">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
            <span>{unsentWarning(unsent ?? null)}</span>
          </p>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => setStep('start')}>
              Cancel
            </Button>
            <Button variant="destructive" size="sm" onClick={() => void reset()}>
              Reset anyway
            </Button>
          </div>
        </div>
      ) : step === 'blocked' ? (
        <p role="alert" className="mt-2 max-w-sm text-sm text-muted">
          Lantern is still open in another tab. Close the other tabs, then reload this page.
        </p>
      ) : (
        <Button
          variant="destructive"
          className="mt-2"
          loading={step === 'resetting' || unsent === undefined}
          onClick={ask}
        >
          Reset local data
        </Button>
      )}
    </ErrorPage>
  );
}
