// Create a channel: a name and public or private; on success the new channel opens.
import { Hash, Lock } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../app/notify.ts';
import { createChannel } from '../../data/channels.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { ChannelNameField, channelNameProblem } from './channel-name-field.tsx';

export function CreateChannelDialog({
  institutionId,
  open,
  onOpenChange,
}: {
  institutionId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'public' | 'private'>('public');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    if (channelNameProblem(name)) return;
    setBusy(true);
    setError(null);
    try {
      const channel = await createChannel(institutionId, { name: name.trim(), type });
      onOpenChange(false);
      setName('');
      void navigate(`/client/${institutionId}/channel/${channel.id}`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create a channel"
      description="Channels are where a team talks about one topic."
    >
      <form onSubmit={submit} className="flex flex-col gap-4 pt-2" noValidate>
        <ChannelNameField id={`${id}-name`} value={name} onChange={setName} error={error} autoFocus />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1.5 text-[13px] font-medium">Who can find it</legend>
          {(
            [
              ['public', Hash, 'Public', 'Anyone in the workspace can find and join it.'],
              ['private', Lock, 'Private', 'Only people who are added can see it.'],
            ] as const
          ).map(([value, Icon, label, help]) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors',
                type === value ? 'border-accent bg-accent-soft/40' : 'border-line hover:bg-hover',
              )}
            >
              <input
                type="radio"
                name="type"
                value={value}
                checked={type === value}
                onChange={() => setType(value)}
                className="sr-only"
              />
              <Icon className="mt-0.5 size-4 text-muted" aria-hidden />
              <span>
                <span className="block text-sm font-medium">{label}</span>
                <span className="block text-[13px] text-muted">{help}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create channel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
