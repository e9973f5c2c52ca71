// "Add a description" (issue 15 item 2): what the channel is for, in a line or two, shown at the top of
// its history and in its details. Its managers write it; a counter shows the room left.
import { type FormEvent, useId, useState } from 'react';
import { CHANNEL_DESCRIPTION_MAX } from '../../../schemas/protocol/limits.ts';
import { errorMessage } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { describeChannel } from '../../data/channels.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Label } from '../ui/input.tsx';

export function DescribeChannelDialog({
  channel,
  open,
  onOpenChange,
}: {
  channel: { id: string; name: string; description?: string | null };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { institution } = useWorkspace();
  const [text, setText] = useState(channel.description ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const left = CHANNEL_DESCRIPTION_MAX - text.trim().length;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (left < 0) return setError(`A description has at most ${CHANNEL_DESCRIPTION_MAX} characters`);
    setBusy(true);
    setError(null);
    try {
      await describeChannel(institution.id, channel.id, text);
      onOpenChange(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setText(channel.description ?? '');
        onOpenChange(next);
      }}
      title={channel.description ? 'Edit description' : 'Add a description'}
      description={`Let people know what #${channel.name} is for.`}
    >
      <form onSubmit={submit} className="flex flex-col gap-4 pt-2" noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-description`}>Description</Label>
          <textarea
            id={`${id}-description`}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            rows={3}
            autoFocus
            placeholder="For example: plans, dates and decisions for the spring fair"
            aria-invalid={error || left < 0 ? true : undefined}
            aria-describedby={`${id}-count`}
            className="w-full resize-none rounded-md border border-line-strong bg-surface px-3 py-2 text-sm outline-none placeholder:text-faint focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-ring aria-[invalid=true]:border-danger"
          />
          <div className="flex justify-between gap-2">
            {error ? <FieldMessage error>{error}</FieldMessage> : <span />}
            <span
              id={`${id}-count`}
              className={cn('text-xs tabular-nums', left < 0 ? 'text-danger' : 'text-muted')}
            >
              {left < 0 ? `${-left} too many` : `${left} left`}
            </span>
          </div>
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
