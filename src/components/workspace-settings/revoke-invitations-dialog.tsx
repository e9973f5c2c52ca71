// Asks before revoking invitations: a revoked address can no longer join with its invitation, and the
// person is not told, so the admin says yes knowingly.
import { useState } from 'react';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { revokeInvitations } from '../../data/workspace-settings.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage } from '../ui/input.tsx';

export function RevokeInvitationsDialog({
  institutionId,
  emails,
  onOpenChange,
  onRevoked,
}: {
  institutionId: string;
  /** The addresses to revoke; null: the dialog is closed. */
  emails: string[] | null;
  onOpenChange: (open: boolean) => void;
  onRevoked: (emails: string[]) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = emails ?? [];
  const one = list.length === 1 ? list[0] : null;

  async function revoke() {
    setBusy(true);
    setError(null);
    try {
      await revokeInvitations(institutionId, list);
      toast.success(one ? `Invitation to ${one} revoked` : `${list.length} invitations revoked`);
      onRevoked(list);
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={emails !== null}
      onOpenChange={(open) => {
        if (!open) setError(null);
        onOpenChange(open);
      }}
      title={one ? 'Revoke this invitation?' : `Revoke ${list.length} invitations?`}
      description={
        one
          ? `${one} will no longer be able to join with it. You can invite them again later.`
          : 'These people will no longer be able to join with their invitations. You can invite them again later.'
      }
    >
      {one ? null : (
        <ul className="mb-3 max-h-40 overflow-y-auto rounded-md border border-line bg-surface-2 px-3 py-2 text-[13px]">
          {list.map((email) => (
            <li key={email} className="truncate py-0.5">
              {email}
            </li>
          ))}
        </ul>
      )}
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      <div className="flex justify-end gap-2 pt-2">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant="destructive" loading={busy} onClick={() => void revoke()}>
          {one ? 'Revoke invitation' : `Revoke ${list.length} invitations`}
        </Button>
      </div>
    </Dialog>
  );
}
