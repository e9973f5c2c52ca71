// Sign-in (spec §2 /signin, §7 Auth): the configured identity providers' buttons above the e-mail code;
// the e-mail step asks for a code, the code step signs in (or confirms a provider's address first).
import { ArrowLeft, Mail } from 'lucide-react';
import { type FormEvent, lazy, type ReactNode, Suspense, useId, useRef, useState } from 'react';
import { OTP_LENGTH } from '../../schemas/protocol/limits.ts';
import { errorMessage } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { Button } from '../components/ui/button.tsx';
import { FieldMessage, Input, Label } from '../components/ui/input.tsx';
import { PinInput, pinComplete } from '../components/ui/pin-input.tsx';
import type { ProviderOutcome } from '../data/identity.ts';
import { offersProviders, useIdentityProviders } from '../data/identity-providers.ts';
import { preloadSignIn, requestCode, signIn } from '../data/sign-in.ts';

// The providers' buttons and the popup sign-in load only on servers that offer providers.
const ProviderButtons = lazy(() =>
  import('../components/sign-in/provider-buttons.tsx').then((m) => ({ default: m.ProviderButtons })),
);
const confirmProviderSignIn = (outcome: Extract<ProviderOutcome, { kind: 'confirm' }>, code: string) =>
  import('../data/identity.ts').then((m) => m.confirmProviderSignIn(outcome, code));

const providerCount = (list: { providers: unknown[]; firebase: unknown }) =>
  list.providers.length + (list.firebase ? 1 : 0);
/** The buttons' height while their code loads, so the e-mail field does not jump. */
const ButtonsPlaceholder = ({ count }: { count: number }) => (
  <div aria-hidden style={{ height: `${count * 2.5 + (count - 1) * 0.5}rem` }} />
);

type Step =
  | { kind: 'email' }
  | { kind: 'code'; email: string }
  | { kind: 'provider-code'; outcome: Extract<ProviderOutcome, { kind: 'confirm' }> };

/**
 * `onSignedIn`: what the standalone sign-in page does once the session is kept (it goes on to the app);
 * inside the app the auth layout's guard sees the session and moves on by itself.
 */
export function SignInScreen({ onSignedIn }: { onSignedIn?: () => void } = {}) {
  usePageTitle('Sign in');
  const [step, setStep] = useState<Step>({ kind: 'email' });
  const [email, setEmail] = useState('');
  const providers = useIdentityProviders();

  return (
    <div className="rounded-xl border border-line bg-surface p-6 shadow-sm sm:p-7">
      {step.kind === 'email' ? (
        <EmailStep
          email={email}
          onEmail={setEmail}
          onSent={(sentTo) => setStep({ kind: 'code', email: sentTo })}
          providers={
            offersProviders(providers) ? (
              <Suspense fallback={<ButtonsPlaceholder count={providerCount(providers)} />}>
                <ProviderButtons
                  list={providers}
                  onConfirm={(outcome) => setStep({ kind: 'provider-code', outcome })}
                  onSignedIn={onSignedIn}
                />
              </Suspense>
            ) : null
          }
        />
      ) : step.kind === 'code' ? (
        <CodeStep email={step.email} onBack={() => setStep({ kind: 'email' })} onSignedIn={onSignedIn} />
      ) : (
        <CodeStep
          email={step.outcome.email}
          onBack={() => setStep({ kind: 'email' })}
          verify={(code) => confirmProviderSignIn(step.outcome, code)}
          onSignedIn={onSignedIn}
          intro="This is the first time this account signs in here. To link it, enter the 6-digit code we sent to"
          backLabel="Back to sign-in"
        />
      )}
    </div>
  );
}

function EmailStep({
  email,
  onEmail,
  onSent,
  providers,
}: {
  email: string;
  onEmail: (v: string) => void;
  onSent: (email: string) => void;
  /** The "Continue with …" buttons, when the server offers identity providers. */
  providers: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!value) return setError('Enter your e-mail address');
    setBusy(true);
    setError(null);
    try {
      await requestCode(value);
      onSent(value);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Sign in to Lantern</h1>
        <p className="mt-1 text-[13px] text-muted">
          {providers
            ? 'Continue with your account, or get a 6-digit code by e-mail.'
            : 'We will e-mail you a 6-digit code. No password needed.'}
        </p>
      </div>
      {providers ? (
        <>
          {providers}
          <div className="flex items-center gap-3 text-[12px] text-muted" aria-hidden>
            <span className="h-px flex-1 bg-line" />
            or
            <span className="h-px flex-1 bg-line" />
          </div>
        </>
      ) : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>E-mail</Label>
        <Input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@company.com"
          autoFocus
          required
          value={email}
          onChange={(e) => {
            // The code that sends the request loads while the address is typed.
            preloadSignIn();
            onEmail(e.target.value);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error ? (
          <FieldMessage id={`${id}-error`} error>
            {error}
          </FieldMessage>
        ) : null}
      </div>
      <Button type="submit" loading={busy} className="w-full">
        <Mail aria-hidden />
        Continue with e-mail
      </Button>
    </form>
  );
}

function CodeStep({
  email,
  onBack,
  verify: check = (code) => signIn(email, code),
  intro = 'We sent a 6-digit code to',
  backLabel = 'Use a different e-mail',
  onSignedIn,
}: {
  email: string;
  onBack: () => void;
  onSignedIn?: () => void;
  /** What the code does: sign in by e-mail, or confirm a provider's address. */
  verify?: (code: string) => Promise<void>;
  intro?: string;
  backLabel?: string;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const submitted = useRef<string | null>(null);
  const id = useId();

  async function verify(value: string) {
    if (!pinComplete(value, OTP_LENGTH) || busy) return;
    submitted.current = value;
    setBusy(true);
    setError(null);
    try {
      // On success the session appears in the store and the auth guard moves on to the redirect.
      await check(value);
      onSignedIn?.();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  /** `next` comes cleaned by the pin input: a pasted "123 456" or "Code: 123456" is six digits. */
  function change(next: string) {
    setCode(next);
    // Typing or pasting the sixth digit signs in without another click.
    if (pinComplete(next, OTP_LENGTH) && submitted.current !== next) void verify(next);
  }

  async function resend() {
    setResending(true);
    setError(null);
    try {
      await requestCode(email);
      setNotice('A new code is on its way.');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setResending(false);
    }
  }

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void verify(code);
      }}
      noValidate
      className="flex flex-col gap-5"
    >
      <div>
        <button
          type="button"
          onClick={onBack}
          className="-ml-1 mb-3 inline-flex items-center gap-1 rounded px-1 text-[13px] text-muted hover:text-fg"
        >
          <ArrowLeft className="size-3.5" aria-hidden />
          {backLabel}
        </button>
        <h1 className="text-xl font-semibold tracking-tight">Check your e-mail</h1>
        <p className="mt-1 text-[13px] text-muted">
          {intro} <span className="font-medium text-fg">{email}</span>. It is valid for 10 minutes.
        </p>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-code`}>Sign-in code</Label>
        <PinInput
          id={`${id}-code`}
          length={OTP_LENGTH}
          autoFocus
          value={code}
          onChange={change}
          invalid={Boolean(error)}
          describedBy={error ? `${id}-error` : undefined}
        />
        {error ? (
          <FieldMessage id={`${id}-error`} error>
            {error}
          </FieldMessage>
        ) : notice ? (
          <FieldMessage>{notice}</FieldMessage>
        ) : null}
      </div>
      <Button type="submit" loading={busy} disabled={!pinComplete(code, OTP_LENGTH)} className="w-full">
        Sign in
      </Button>
      <p className="text-center text-[13px] text-muted">
        No code?{' '}
        <Button variant="link" size="sm" onClick={resend} disabled={resending} className="h-auto text-[13px]">
          Send another
        </Button>
      </p>
    </form>
  );
}
