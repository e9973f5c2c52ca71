// Workspace settings → Pending invitations: who has been invited and not joined yet, who invited them and
// when; resend one's e-mail (someone lost it), revoke one or several (after asking), and invite more
// through the existing invite dialog.
import { MailCheck, RotateCw, UserPlus, X } from 'lucide-react';
import { useState } from 'react';
import type { WorkspaceInvitation } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import {
  refreshPendingInvitations,
  resendInvitation,
  usePendingInvitations,
} from '../../data/workspace-settings.ts';
import { relativeTime } from '../agents/format.ts';
import { formatDate } from '../messages/date-format.ts';
import { Button } from '../ui/button.tsx';
import { EmptyState, Spinner } from '../ui/states.tsx';
import { InviteDialog } from '../workspace/invite-dialog.tsx';
import { RevokeInvitationsDialog } from './revoke-invitations-dialog.tsx';

function InvitationRow({
  invitation,
  inviter,
  selected,
  onSelect,
  resending,
  onResend,
  onRevoke,
}: {
  invitation: WorkspaceInvitation;
  inviter: string | null;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  resending: boolean;
  onResend: () => void;
  onRevoke: () => void;
}) {
  return (
    // On a phone the actions go under the address, which is what people need to read in full.
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3" aria-label={invitation.email}>
      <input
        type="checkbox"
        checked={selected}
        onChange={(e) => onSelect(e.target.checked)}
        aria-label={`Select ${invitation.email}`}
        className="size-4 shrink-0 accent-[var(--accent)]"
      />
      <div className="min-w-0 flex-1 basis-56">
        <p className="truncate text-sm font-medium">{invitation.email}</p>
        <p className="truncate text-[13px] text-muted">
          {inviter ? `Invited by ${inviter}` : 'Invited'}{' '}
          <span title={formatDate(invitation.createdAt, 'MMM d, yyyy HH:mm')}>
            {relativeTime(invitation.createdAt)}
          </span>
        </p>
      </div>
      <div className="ml-auto flex shrink-0 items-center gap-1">
        <Button
          variant="outline"
          size="sm"
          loading={resending}
          onClick={onResend}
          aria-label={`Resend invitation to ${invitation.email}`}
        >
          <RotateCw aria-hidden className="max-sm:hidden" /> Resend
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={onRevoke}
          aria-label={`Revoke invitation to ${invitation.email}`}
        >
          <X aria-hidden className="max-sm:hidden" /> Revoke
        </Button>
      </div>
    </li>
  );
}

export function PendingInvitationsSection() {
  const { institution, membersById } = useWorkspace();
  const invitations = usePendingInvitations(institution.id);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [resending, setResending] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string[] | null>(null);
  const [inviting, setInviting] = useState(false);

  const list = invitations.data ?? [];
  // Selections of invitations that have since gone (accepted, revoked elsewhere) do not count.
  const chosen = list.filter((i) => selected.has(i.email)).map((i) => i.email);
  const inviterName = (memberId: string | null) => {
    const member = memberId ? membersById.get(memberId) : undefined;
    return member ? member.name || member.email : null;
  };

  async function resend(invitation: WorkspaceInvitation) {
    setResending(invitation.id);
    try {
      await resendInvitation(institution.id, invitation.id);
      toast.success(`Invitation sent again to ${invitation.email}`);
    } catch (err) {
      notifyError(err);
    } finally {
      setResending(null);
    }
  }

  const select = (email: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(email);
      else next.delete(email);
      return next;
    });

  const inviteButton = (
    <Button variant="outline" size="sm" onClick={() => setInviting(true)}>
      <UserPlus aria-hidden /> Invite people
    </Button>
  );

  return (
    <section aria-labelledby="pending-invitations-title">
      <div className="mb-1 flex items-end justify-between gap-2">
        <h2
          id="pending-invitations-title"
          className="text-xs font-semibold tracking-wide text-muted uppercase"
        >
          Pending invitations
        </h2>
        {list.length > 0 ? (
          <span className="text-xs text-muted">
            {list.length === 1 ? '1 pending' : `${list.length} pending`}
          </span>
        ) : null}
      </div>
      <div className="rounded-lg border border-line bg-surface">
        {invitations.data === undefined && invitations.loading ? (
          <Spinner label="Loading invitations" />
        ) : null}
        {invitations.error && invitations.data === undefined ? (
          <p className="px-4 py-3 text-[13px] text-muted">{invitations.error}</p>
        ) : null}
        {invitations.data !== undefined && list.length === 0 ? (
          <EmptyState icon={MailCheck} title="No pending invitations" action={inviteButton} className="py-8">
            Nobody is waiting to join. People you invite by e-mail appear here until they accept.
          </EmptyState>
        ) : null}
        {list.length > 0 ? (
          <>
            <div className="flex min-h-12 flex-wrap items-center justify-between gap-2 border-b border-line px-4 py-2">
              <label className="flex items-center gap-3 text-[13px] text-muted">
                <input
                  type="checkbox"
                  checked={chosen.length === list.length}
                  ref={(el) => {
                    if (el) el.indeterminate = chosen.length > 0 && chosen.length < list.length;
                  }}
                  onChange={(e) => setSelected(new Set(e.target.checked ? list.map((i) => i.email) : []))}
                  className="size-4 accent-[var(--accent)]"
                />
                {chosen.length > 0 ? `${chosen.length} selected` : 'Select all'}
              </label>
              {chosen.length > 0 ? (
                <Button variant="destructive" size="sm" onClick={() => setRevoking(chosen)}>
                  Revoke selected
                </Button>
              ) : (
                inviteButton
              )}
            </div>
            <ul className="divide-y divide-line">
              {list.map((invitation) => (
                <InvitationRow
                  key={invitation.id}
                  invitation={invitation}
                  inviter={inviterName(invitation.invitedBy)}
                  selected={selected.has(invitation.email)}
                  onSelect={(on) => select(invitation.email, on)}
                  resending={resending === invitation.id}
                  onResend={() => void resend(invitation)}
                  onRevoke={() => setRevoking([invitation.email])}
                />
              ))}
            </ul>
          </>
        ) : null}
      </div>
      <RevokeInvitationsDialog
        institutionId={institution.id}
        emails={revoking}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        onRevoked={(emails) =>
          setSelected((current) => new Set([...current].filter((e) => !emails.includes(e))))
        }
      />
      <InviteDialog
        institutionId={institution.id}
        institutionName={institution.name}
        open={inviting}
        onOpenChange={(open) => {
          setInviting(open);
          // New invitations show here as soon as the dialog closes.
          if (!open) void refreshPendingInvitations(institution.id);
        }}
      />
    </section>
  );
}
