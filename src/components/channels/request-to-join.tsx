// Asking to join a private channel: a reason for its managers, then a calm "pending" state until they
// answer. The answer arrives live (memberAction); RequestOutcomeToasts tells the person.
import { Clock, Lock } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { ChannelRequest } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { requestToJoin, useMyRequests } from '../../data/channel-requests.ts';
import { Button } from '../ui/button.tsx';
import { FieldMessage, Label } from '../ui/input.tsx';

/** The caller's latest request for one channel, if any. */
export function useMyRequestFor(institutionId: string, channelId: string): ChannelRequest | null | undefined {
  const mine = useMyRequests(institutionId);
  if (mine === undefined) return undefined;
  return mine.find((r) => r.channelId === channelId) ?? null;
}

export function RequestToJoinForm({
  institutionId,
  channelId,
  channelName,
  onDone,
  compact,
}: {
  institutionId: string;
  channelId: string;
  channelName?: string | undefined;
  onDone?: () => void;
  compact?: boolean;
}) {
  const request = useMyRequestFor(institutionId, channelId);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const label = channelLabel(channelName);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) return setError('Give a reason');
    setBusy(true);
    setError(null);
    try {
      await requestToJoin(institutionId, channelId, reason.trim());
      toast.success(`Request sent. You'll be added when it is approved.`);
      onDone?.();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  if (request?.status === 'pending') return <PendingRequest channelName={request.channelName} />;
  return (
    <form onSubmit={submit} noValidate className="flex w-full flex-col gap-2 text-left">
      {compact ? null : <Label htmlFor={`${id}-reason`}>Why would you like to join {label}?</Label>}
      <textarea
        id={`${id}-reason`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        rows={compact ? 2 : 3}
        maxLength={500}
        aria-label={compact ? `Reason to join ${label}` : undefined}
        placeholder="e.g. I'm picking up the night shift handover"
        className="w-full resize-none rounded-md border border-line-strong bg-surface px-3 py-2 text-sm outline-none placeholder:text-faint focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-ring"
      />
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      {request?.status === 'rejected' ? (
        <FieldMessage>Your last request was declined. You can ask again.</FieldMessage>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" size={compact ? 'sm' : 'default'} loading={busy}>
          Request to join
        </Button>
      </div>
    </form>
  );
}

/** How a request names its channel: by name for members, otherwise without it (the server sends null). */
const channelLabel = (name: string | null | undefined) => (name ? `#${name}` : 'this channel');

export function PendingRequest({ channelName }: { channelName: string | null }) {
  return (
    <p
      className="inline-flex items-center gap-1.5 rounded-full bg-accent-soft px-2.5 py-1 text-xs font-medium text-accent-fg"
      data-testid="request-pending"
    >
      <Clock className="size-3.5" aria-hidden />
      Request pending
      <span className="sr-only"> to join {channelLabel(channelName)}</span>
    </p>
  );
}

/** Where a private channel would be: it explains and offers the request form. */
export function PrivateChannelGate({
  institutionId,
  channelId,
}: {
  institutionId: string;
  channelId: string;
}) {
  const request = useMyRequestFor(institutionId, channelId);
  const name = request?.channelName ?? undefined;
  return (
    <div className="flex flex-1 flex-col items-center justify-center px-6 py-12">
      <div className="flex w-full max-w-sm flex-col items-center gap-3 text-center">
        <div className="flex size-11 items-center justify-center rounded-xl border border-line bg-surface text-muted shadow-xs">
          <Lock className="size-5" aria-hidden />
        </div>
        <h2 className="text-[15px] font-semibold">
          {name ? `#${name} is private` : 'This channel is private'}
        </h2>
        <p className="text-[13px] text-muted">
          {request?.status === 'pending'
            ? 'Your request is with its owners. The channel opens here as soon as they approve it.'
            : 'Only its members can read it. Ask its owners to let you in.'}
        </p>
        <div className="mt-2 flex w-full justify-center">
          <RequestToJoinForm institutionId={institutionId} channelId={channelId} channelName={name} />
        </div>
      </div>
    </div>
  );
}

/** Toasts the answer to the person's own join requests as it arrives (pending → approved/rejected). */
export function RequestOutcomeToasts({ institutionId }: { institutionId: string }) {
  const mine = useMyRequests(institutionId);
  const seen = useRef<Map<string, string> | null>(null);
  useEffect(() => {
    if (!mine) return;
    const before = seen.current;
    seen.current = new Map(mine.map((r) => [r.id, r.status]));
    if (!before) return;
    for (const r of mine) {
      if (before.get(r.id) !== 'pending' || r.status === 'pending') continue;
      const label = channelLabel(r.channelName);
      if (r.status === 'approved') toast.success(`Your request to join ${label} was approved`);
      else toast.info(`Your request to join ${label} was declined`);
    }
  }, [mine]);
  return null;
}
