// /account-deletion (spec §2, open to all): a signed-in person confirms; someone signed out first proves
// the address with a code mailed for deletion only. What happens is written out before the button: every
// device is signed out, the profile goes, messages stay under "Deleted user" or are removed (their
// choice), and a workspace they are primary owner of must be handed over first (linked to its Settings).
import { AlertTriangle, ArrowLeft, CheckCircle2, Mail, Trash2 } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import {
  type AccountDeletedResponse,
  type AccountDeletionPreview,
  type DeletedMessagesChoice,
  OTP_LENGTH,
} from '../../schemas/protocol/index.ts';
import { AuthFrame } from '../app/auth-layout.tsx';
import { errorMessage } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../components/ui/cn.ts';
import { FieldMessage, Input, Label } from '../components/ui/input.tsx';
import { PinInput, pinComplete } from '../components/ui/pin-input.tsx';
import { Spinner } from '../components/ui/states.tsx';
import {
  deleteAccountWithCode,
  deleteMyAccount,
  requestDeletionCode,
  useDeletionPreview,
} from '../data/account.ts';
import { DELETED_USER } from '../data/deleted-members.ts';
import { useSession } from '../data/session.ts';

type Done = { email: string; result: AccountDeletedResponse };

export function AccountDeletionScreen() {
  usePageTitle('Delete account');
  const session = useSession();
  const [done, setDone] = useState<Done | null>(null);

  let body: ReactNode;
  if (done) body = <Deleted done={done} />;
  else if (session === undefined) body = <Spinner label="Loading" />;
  else if (session) body = <SignedIn email={session.user.email} onDone={setDone} />;
  else body = <SignedOut onDone={setDone} />;

  return (
    <AuthFrame>
      <div className="rounded-xl border border-line bg-surface p-6 shadow-sm sm:p-7">{body}</div>
    </AuthFrame>
  );
}

function Heading({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <h1 className="text-xl font-semibold tracking-tight">Delete your account</h1>
      <p className="text-[13px] text-muted">{children}</p>
    </div>
  );
}

/** What deleting does, in the words the person reads before they confirm. */
function Consequences({ sessions }: { sessions?: number }) {
  const devices =
    sessions === undefined
      ? 'You are signed out on every device.'
      : sessions === 1
        ? 'You are signed out on this device.'
        : sessions === 2
          ? 'You are signed out on both of your devices.'
          : `You are signed out on all ${sessions} of your devices.`;
  return (
    <section aria-label="What happens" className="flex flex-col gap-2">
      <h2 className="text-[13px] font-medium">What happens</h2>
      <ul className="flex list-disc flex-col gap-1.5 pl-5 text-[13px] text-muted marker:text-faint">
        <li>{devices}</li>
        <li>Your profile is removed: your name, picture and e-mail address.</li>
        <li>
          Your messages stay in their channels under “{DELETED_USER}”, unless you choose below to remove them.
        </li>
        <li>A workspace you are the primary owner of must be handed over to another admin first.</li>
        <li>This cannot be undone. Signing in again with the same address starts a new, empty account.</li>
      </ul>
    </section>
  );
}

function MessagesChoice({
  value,
  onChange,
}: {
  value: DeletedMessagesChoice;
  onChange: (v: DeletedMessagesChoice) => void;
}) {
  const options: { value: DeletedMessagesChoice; label: string; hint: string }[] = [
    {
      value: 'keep',
      label: 'Keep my messages',
      hint: `Conversations stay readable; your messages show “${DELETED_USER}”.`,
    },
    {
      value: 'remove',
      label: 'Remove my messages',
      hint: 'Each of your messages is deleted from its channel.',
    },
  ];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-[13px] font-medium">Your messages</legend>
      {options.map((option) => (
        <label
          key={option.value}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 transition-colors',
            value === option.value ? 'border-accent bg-accent-soft/40' : 'border-line hover:bg-hover',
          )}
        >
          <input
            type="radio"
            name="messages"
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
            className="mt-0.5 accent-[var(--accent)]"
          />
          <span className="flex flex-col">
            <span className="text-sm font-medium">{option.label}</span>
            <span className="text-[13px] text-muted">{option.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function Understood({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex cursor-pointer items-start gap-2.5 text-[13px]">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-0.5 accent-[var(--danger)]"
      />
      <span>I understand that my account is deleted for good.</span>
    </label>
  );
}

function Blocking({ preview }: { preview: AccountDeletionPreview }) {
  if (preview.blockingWorkspaces.length === 0) return null;
  return (
    <div role="alert" className="flex gap-3 rounded-lg border border-danger/40 bg-danger-soft px-3 py-3">
      <AlertTriangle className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
      <div className="flex min-w-0 flex-col gap-1.5 text-[13px]">
        <p className="font-medium">Hand these workspaces over first</p>
        <p className="text-muted">
          You are their primary owner and other people are in them. In each workspace’s Settings, make another
          admin the primary owner, then come back here.
        </p>
        <ul className="flex flex-col gap-1">
          {preview.blockingWorkspaces.map((w) => (
            <li key={w.id} className="flex items-center justify-between gap-2">
              <span className="truncate font-medium">{w.name}</span>
              <Link
                to={`/client/${w.id}/settings`}
                className="shrink-0 text-accent-fg underline underline-offset-2"
              >
                Hand over
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function SoleWorkspaces({ preview }: { preview: AccountDeletionPreview }) {
  if (preview.soleWorkspaces.length === 0) return null;
  const names = preview.soleWorkspaces.map((w) => `“${w.name}”`).join(', ');
  return (
    <p className="rounded-lg border border-line bg-surface-2 px-3 py-2.5 text-[13px] text-muted">
      Nobody else is in {names}: {preview.soleWorkspaces.length === 1 ? 'it is' : 'they are'} deleted with
      your account.
    </p>
  );
}

function SignedIn({ email, onDone }: { email: string; onDone: (done: Done) => void }) {
  const preview = useDeletionPreview(true);
  const [messages, setMessages] = useState<DeletedMessagesChoice>('keep');
  const [understood, setUnderstood] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const blocked = (preview.data?.blockingWorkspaces.length ?? 0) > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone({ email, result: await deleteMyAccount(messages) });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-5">
      <Heading>
        Signed in as <span className="font-medium text-fg">{email}</span>.
      </Heading>
      <Consequences sessions={preview.data?.sessions} />
      {preview.data ? (
        <>
          <Blocking preview={preview.data} />
          <SoleWorkspaces preview={preview.data} />
        </>
      ) : preview.error ? (
        <FieldMessage error>{preview.error}</FieldMessage>
      ) : (
        <Spinner label="Checking your workspaces" />
      )}
      <MessagesChoice value={messages} onChange={setMessages} />
      <Understood checked={understood} onChange={setUnderstood} />
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      <Button
        type="submit"
        variant="destructive"
        loading={busy}
        disabled={!understood || blocked || !preview.data}
        className="w-full"
      >
        <Trash2 aria-hidden />
        Delete my account
      </Button>
      <Link to="/" className="text-center text-[13px] text-muted underline-offset-2 hover:underline">
        Keep my account
      </Link>
    </form>
  );
}

type Step = { kind: 'email' } | { kind: 'code'; email: string };

function SignedOut({ onDone }: { onDone: (done: Done) => void }) {
  const [step, setStep] = useState<Step>({ kind: 'email' });
  const [email, setEmail] = useState('');
  return step.kind === 'email' ? (
    <EmailStep email={email} onEmail={setEmail} onSent={(to) => setStep({ kind: 'code', email: to })} />
  ) : (
    <CodeStep email={step.email} onBack={() => setStep({ kind: 'email' })} onDone={onDone} />
  );
}

function EmailStep({
  email,
  onEmail,
  onSent,
}: {
  email: string;
  onEmail: (v: string) => void;
  onSent: (email: string) => void;
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
      await requestDeletionCode(value);
      onSent(value);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <Heading>First prove the address is yours: we e-mail it a 6-digit code.</Heading>
      <Consequences />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-email`}>E-mail of the account</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@company.com"
          value={email}
          onChange={(e) => onEmail(e.target.value)}
          aria-invalid={error ? true : undefined}
        />
        {error ? <FieldMessage error>{error}</FieldMessage> : null}
      </div>
      <Button type="submit" loading={busy} className="w-full">
        <Mail aria-hidden />
        Send the code
      </Button>
      <p className="text-center text-[13px] text-muted">
        Or{' '}
        <Link
          to="/signin?redirect=%2Faccount-deletion"
          className="text-accent-fg underline underline-offset-2"
        >
          sign in
        </Link>{' '}
        to delete it from here.
      </p>
    </form>
  );
}

function CodeStep({
  email,
  onBack,
  onDone,
}: {
  email: string;
  onBack: () => void;
  onDone: (done: Done) => void;
}) {
  const [code, setCode] = useState('');
  const [messages, setMessages] = useState<DeletedMessagesChoice>('keep');
  const [understood, setUnderstood] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone({ email, result: await deleteAccountWithCode(email, code, messages) });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <div className="flex flex-col gap-1">
        <button
          type="button"
          onClick={onBack}
          className="-ml-1 flex w-fit items-center gap-1 rounded text-[13px] text-muted hover:text-fg"
        >
          <ArrowLeft className="size-3.5" aria-hidden />
          Another address
        </button>
        <h1 className="text-xl font-semibold tracking-tight">Delete your account</h1>
        <p className="text-[13px] text-muted">
          If <span className="font-medium text-fg">{email}</span> has an account, a deletion code is on its
          way.
        </p>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-code`}>Deletion code</Label>
        <PinInput id={`${id}-code`} length={OTP_LENGTH} value={code} onChange={setCode} />
      </div>
      <MessagesChoice value={messages} onChange={setMessages} />
      <Understood checked={understood} onChange={setUnderstood} />
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      <Button
        type="submit"
        variant="destructive"
        loading={busy}
        disabled={!understood || !pinComplete(code, OTP_LENGTH)}
        className="w-full"
      >
        <Trash2 aria-hidden />
        Delete my account
      </Button>
    </form>
  );
}

function Deleted({ done }: { done: Done }) {
  const gone = done.result.deletedWorkspaces;
  return (
    <div className="flex flex-col items-center gap-3 py-2 text-center" role="status">
      <CheckCircle2 className="size-8 text-accent" aria-hidden />
      <h1 className="text-xl font-semibold tracking-tight">Your account was deleted</h1>
      <p className="text-[13px] text-muted">
        Every device was signed out. A confirmation was sent to{' '}
        <span className="font-medium text-fg">{done.email}</span>.
        {gone.length > 0 ? ` Deleted with it: ${gone.map((w) => `“${w.name}”`).join(', ')}.` : ''}
      </p>
      <Link to="/signin" className="text-[13px] text-accent-fg underline underline-offset-2">
        Back to sign-in
      </Link>
    </div>
  );
}
