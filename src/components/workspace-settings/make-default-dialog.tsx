// Asks before making a channel default: everyone in the workspace is put into it at once, and nobody can
// leave it afterwards, which is worth a second look.
import { useState } from 'react';
import type { Channel } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { setChannelDefault } from '../../data/workspace-settings.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage } from '../ui/input.tsx';

export function MakeDefaultDialog({
  institutionId,
  channel,
  people,
  onOpenChange,
}: {
  institutionId: string;
  /** The channel to make default; null: the dialog is closed. */
  channel: Channel | null;
  /** How many people the workspace has, all of whom will be in the channel. */
  people: number;
  onOpenChange: (open: boolean) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    if (!channel) return;
    setBusy(true);
    setError(null);
    try {
      await setChannelDefault(institutionId, channel.id, true);
      toast.success(`#${channel.name} is now a default channel`);
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={channel !== null}
      onOpenChange={(open) => {
        if (!open) setError(null);
        onOpenChange(open);
      }}
      title={`Make #${channel?.name ?? ''} a default channel?`}
      description={`Everyone in this workspace (${people === 1 ? '1 person' : `${people} people`}) will be added to it now, and everyone who joins later too. Nobody can leave a default channel.`}
    >
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      <div className="flex justify-end gap-2 pt-2">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button loading={busy} onClick={() => void confirm()}>
          Make default
        </Button>
      </div>
    </Dialog>
  );
}
