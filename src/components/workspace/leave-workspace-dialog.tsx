// Leaving a workspace (spec §2 routing rules): confirm, leave, forget its last channel, go to /.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { forgetLastChannel } from '../../app/last-channel.ts';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { leaveInstitution } from '../../data/workspaces.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';

export function LeaveWorkspaceDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { institution, me } = useWorkspace();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const isPrimaryOwner = me.role === 'primary_owner';

  async function leave() {
    setBusy(true);
    try {
      await leaveInstitution(institution.id);
      forgetLastChannel(institution.id);
      onOpenChange(false);
      await navigate('/', { replace: true });
    } catch (err) {
      notifyError(err);
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Leave ${institution.name}?`}
      description={
        isPrimaryOwner
          ? 'You are the primary owner. Make someone else the primary owner before you leave.'
          : 'You lose access to its channels and messages until someone invites you again.'
      }
    >
      <div className="flex justify-end gap-2 pt-3">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button variant="destructive" loading={busy} onClick={() => void leave()}>
          Leave workspace
        </Button>
      </div>
    </Dialog>
  );
}
