// "Continue with …" buttons of the sign-in page (spec §2 /signin, §7): one per configured provider, the one
// used last on this device highlighted (settings mostRecentSiginProviderUsed). Nothing at all when the
// server offers none, so the page is the e-mail code alone.
import { useEffect, useRef, useState } from 'react';
import type { IdentityProvider, IdentityProvidersResponse } from '../../../schemas/protocol/index.ts';
import { toast } from '../../app/toast.ts';
import { requireClient } from '../../data/client.ts';
import {
  completeRedirectSignIn,
  type PreparedAttempt,
  type ProviderOutcome,
  prepareAttempt,
  signInWithProviderPopup,
} from '../../data/identity.ts';
import { useSettings } from '../../data/settings.ts';
import { signInErrorText } from '../../data/sign-in-errors.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { ProviderMark } from './provider-marks.tsx';

type Confirm = Extract<ProviderOutcome, { kind: 'confirm' }>;

const firebaseAdapter = () => import('../../data/firebase-sign-in.ts');

export function ProviderButtons({
  list,
  onConfirm,
  onSignedIn,
}: {
  list: IdentityProvidersResponse;
  onConfirm: (outcome: Confirm) => void;
  /** The standalone sign-in page goes on to the app; inside the app the auth guard does. */
  onSignedIn?: () => void;
}) {
  const settings = useSettings();
  // The standalone sign-in page has not opened the store: the highlight of the last-used provider needs it.
  useEffect(() => {
    void requireClient().catch(() => undefined);
  }, []);
  const [busy, setBusy] = useState<string | null>(null);
  const prepared = useRef<PreparedAttempt | null>(null);

  const prepare = () => {
    prepared.current = null;
    void prepareAttempt().then((a) => {
      prepared.current = a;
    });
  };
  useEffect(prepare, []);
  // Spec §7 redirect-result lookup: a sign-in that left this tab for the provider (popups blocked).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens
  useEffect(() => {
    handle(
      'redirect',
      completeRedirectSignIn().then((outcome) => outcome ?? undefined),
    );
  }, []);
  useEffect(() => {
    // The adapter and the Firebase SDK load only where the server names a Firebase project.
    if (list.firebase) void firebaseAdapter().then((m) => m.preloadFirebase());
  }, [list.firebase]);

  const entries: Array<Pick<IdentityProvider, 'id' | 'name' | 'kind' | 'icon'>> = [
    ...list.providers,
    ...(list.firebase
      ? [{ id: 'firebase', name: list.firebase.name, kind: 'google' as const, icon: null }]
      : []),
  ];
  function handle(id: string, run: Promise<ProviderOutcome | undefined>) {
    setBusy(id);
    run
      .then((outcome) => {
        if (outcome?.kind === 'confirm') onConfirm(outcome);
        else if (outcome?.kind === 'signed-in') onSignedIn?.();
      })
      .catch((err: unknown) => toast.error(signInErrorText(err)))
      .finally(() => setBusy(null));
  }

  function start(id: string) {
    if (busy) return;
    if (id === 'firebase' && list.firebase) {
      const config = list.firebase;
      handle(
        id,
        firebaseAdapter()
          .then((m) => m.signInWithFirebasePopup(config))
          .then(() => ({ kind: 'signed-in' }) as const),
      );
      return;
    }
    const attempt = prepared.current;
    // Hashing the secret takes a millisecond; a click before it is done is simply not taken yet.
    if (!attempt) return;
    prepare();
    // Opened here, synchronously within the click, or the browser blocks the popup.
    handle(id, signInWithProviderPopup(id, attempt));
  }

  if (entries.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {entries.map((p) => {
        const last = settings.mostRecentSiginProviderUsed === p.id;
        return (
          <Button
            key={p.id}
            variant="outline"
            loading={busy === p.id}
            disabled={busy !== null && busy !== p.id}
            onClick={() => start(p.id)}
            className={cn('relative h-10 w-full justify-center', last && 'border-accent ring-1 ring-accent')}
          >
            <ProviderMark provider={p} />
            <span>Continue with {p.name}</span>
            {last ? (
              <span className="absolute -top-2 right-3 rounded-full border border-accent bg-accent-soft px-1.5 text-[10px] leading-4 font-semibold text-accent-fg">
                Last used
              </span>
            ) : null}
          </Button>
        );
      })}
    </div>
  );
}
