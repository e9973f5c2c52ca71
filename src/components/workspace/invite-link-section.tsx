// The invite dialog's shareable link (decision 0045): admins create one lasting 1, 7 or 30 days, copy
// it, make a new one (the old stops working) or turn it off. Anyone signed in who opens it can join.
import { Check, Copy, Link2, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { createInviteLink, revokeInviteLink, useInviteLink } from '../../data/onboarding.ts';
import { Button } from '../ui/button.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';

const LIFETIMES = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
] as const;

const expiryText = (iso: string) =>
  `Works until ${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.`;

export function InviteLinkSection({ institutionId }: { institutionId: string }) {
  const state = useInviteLink(institutionId, true);
  const [days, setDays] = useState<1 | 7 | 30>(7);
  const [busy, setBusy] = useState<'create' | 'revoke' | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const link = state.data;

  async function run(what: 'create' | 'revoke') {
    setBusy(what);
    setError(null);
    try {
      if (what === 'create') await createInviteLink(institutionId, days);
      else {
        await revokeInviteLink(institutionId);
        toast.success('Invite link turned off');
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setError('Copying is not allowed here; select the link and copy it.');
    }
  }

  return (
    <section className="flex flex-col gap-2 border-t border-line pt-4" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="flex items-center gap-2 text-sm font-medium">
        <Link2 className="size-4 text-accent" aria-hidden /> Invite link
      </h3>
      {link ? (
        <>
          <Label htmlFor={`${id}-url`} className="sr-only">
            Invite link address
          </Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-url`}
              readOnly
              value={link.url}
              onFocus={(e) => e.target.select()}
              className="font-mono text-xs"
            />
            <Button type="button" variant="outline" onClick={() => void copy(link.url)}>
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <FieldMessage>{expiryText(link.expiresAt)} Anyone signed in who opens it can join.</FieldMessage>
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              type="button"
              variant="ghost"
              size="sm"
              loading={busy === 'revoke'}
              disabled={busy !== null}
              onClick={() => void run('revoke')}
            >
              Turn off link
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              loading={busy === 'create'}
              disabled={busy !== null}
              onClick={() => void run('create')}
            >
              <RefreshCw aria-hidden /> New link
            </Button>
          </div>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 flex-1 text-[13px] text-muted">
            {state.loading && link === undefined
              ? 'Loading…'
              : 'Share one link instead of typing addresses. Lasts'}
          </p>
          <fieldset className="flex gap-1" aria-label="How long the link works">
            {LIFETIMES.map((l) => (
              <Button
                key={l.days}
                type="button"
                size="xs"
                variant={days === l.days ? 'secondary' : 'ghost'}
                aria-pressed={days === l.days}
                onClick={() => setDays(l.days)}
              >
                {l.label}
              </Button>
            ))}
          </fieldset>
          <Button
            type="button"
            size="sm"
            variant="outline"
            loading={busy === 'create'}
            onClick={() => void run('create')}
          >
            Create link
          </Button>
        </div>
      )}
      {error || state.error ? <FieldMessage error>{error ?? state.error}</FieldMessage> : null}
    </section>
  );
}
