// Settings → Sign-in methods: the e-mail code (always there, it cannot be removed) and every provider
// account linked to this person, each with Unlink. Unlinking never locks anyone out (decision 0025).
import { KeyRound, Mail } from 'lucide-react';
import { useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { unlinkSigninMethod, useSigninMethods } from '../../data/identity.ts';
import { formatDate } from '../messages/date-format.ts';
import { Button } from '../ui/button.tsx';
import { Spinner } from '../ui/states.tsx';

const when = (iso: string) => formatDate(iso, 'MMM d, yyyy');

export function SigninMethodsSection() {
  const methods = useSigninMethods();
  const [busy, setBusy] = useState<string | null>(null);
  const data = methods.data;

  return (
    <section aria-label="Sign-in methods">
      <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Sign-in methods</h2>
      <div className="divide-y divide-line rounded-lg border border-line bg-surface">
        {data === undefined && methods.loading ? (
          <div className="flex justify-center px-4 py-3">
            <Spinner label="Loading sign-in methods" />
          </div>
        ) : null}
        {methods.error && data === undefined ? (
          <p className="px-4 py-3 text-[13px] text-muted">{methods.error}</p>
        ) : null}
        {data ? (
          <div className="flex items-center gap-3 px-4 py-3">
            <Mail className="size-4 shrink-0 text-muted" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium">E-mail code</p>
              <p className="truncate text-[13px] text-muted">{data.email}</p>
            </div>
          </div>
        ) : null}
        {data?.data.map((method) => (
          <div key={method.id} className="flex items-center gap-3 px-4 py-3">
            <KeyRound className="size-4 shrink-0 text-muted" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{method.providerName}</p>
              {method.email ? <p className="truncate text-[13px] text-muted">{method.email}</p> : null}
              <p className="text-[13px] text-muted">
                Linked {when(method.createdAt)} · last used {when(method.lastUsedAt)}
              </p>
            </div>
            <Button
              variant="outline"
              size="sm"
              loading={busy === method.id}
              aria-label={`Unlink ${method.providerName}`}
              onClick={() => {
                setBusy(method.id);
                unlinkSigninMethod(method.id)
                  .catch(notifyError)
                  .finally(() => setBusy(null));
              }}
            >
              Unlink
            </Button>
          </div>
        ))}
      </div>
      {data && data.data.length === 0 ? (
        <p className="mt-1.5 text-[13px] text-muted">
          You sign in with a code sent to your e-mail. Accounts you use to continue with a provider appear
          here.
        </p>
      ) : null}
    </section>
  );
}
