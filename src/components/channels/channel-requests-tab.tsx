// The Requests tab (channel managers): people asking to join a private channel, with their reason;
// Approve adds them at once. New requests arrive live (memberAction events).
import { formatDistanceToNowStrict } from 'date-fns';
import { Check, Inbox, X } from 'lucide-react';
import { useState } from 'react';
import type { ChannelRequest } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { answerChannelRequest } from '../../data/channel-requests.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { EmptyState, Spinner } from '../ui/states.tsx';

export function ChannelRequestsTab({ requests }: { requests: ChannelRequest[] | undefined }) {
  const { institution, membersById } = useWorkspace();
  const [busy, setBusy] = useState<string | null>(null);
  if (requests === undefined) return <Spinner />;
  const pending = requests.filter((r) => r.status === 'pending');
  if (pending.length === 0) {
    return (
      <EmptyState icon={Inbox} title="No requests waiting">
        When someone asks to join, their request shows up here.
      </EmptyState>
    );
  }

  async function answer(request: ChannelRequest, status: 'approved' | 'rejected') {
    setBusy(request.id);
    try {
      await answerChannelRequest(institution.id, request.channelId, request.id, status);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <ul className="min-h-0 flex-1 overflow-y-auto px-4 py-3" aria-label="Join requests">
      {pending.map((request) => {
        const person = membersById.get(request.memberId);
        const name = person?.name || person?.email || 'Someone';
        return (
          <li key={request.id} className="mb-2 rounded-lg border border-line p-3">
            <div className="flex items-start gap-3">
              <Avatar id={request.memberId} name={name} src={person?.profileImage} size="md" />
              <div className="min-w-0 flex-1">
                <p className="flex items-baseline gap-2">
                  <span className="truncate text-sm font-medium">{name}</span>
                  <span className="shrink-0 text-xs text-faint">
                    {formatDistanceToNowStrict(new Date(request.createdAt), { addSuffix: true })}
                  </span>
                </p>
                <p className="mt-1 rounded-md bg-surface-2 px-2.5 py-1.5 text-[13px] whitespace-pre-wrap text-fg/90">
                  {request.reason}
                </p>
              </div>
            </div>
            <div className="mt-2 flex justify-end gap-2">
              <Button
                size="sm"
                variant="ghost"
                disabled={busy !== null}
                onClick={() => void answer(request, 'rejected')}
                aria-label={`Reject ${name}`}
              >
                <X aria-hidden />
                Reject
              </Button>
              <Button
                size="sm"
                disabled={busy !== null}
                loading={busy === request.id}
                onClick={() => void answer(request, 'approved')}
                aria-label={`Approve ${name}`}
              >
                <Check aria-hidden />
                Approve
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
