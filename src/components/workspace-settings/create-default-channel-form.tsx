// A new default channel in one step: public, and every member, present and future, is in it. The name
// follows the channel rules of the create-channel dialog; a refusal says its sentence beside the field.
import { type FormEvent, useId, useState } from 'react';
import { NAME_MAX } from '../../../schemas/protocol/limits.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { createDefaultChannel } from '../../data/workspace-settings.ts';
import { fieldError } from '../../store/api-error.ts';
import { Button } from '../ui/button.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';

export function CreateDefaultChannelForm({ institutionId }: { institutionId: string }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next = name.trim();
    if (!next) return setError('Enter a name for the channel');
    setBusy(true);
    setError(null);
    try {
      const channel = await createDefaultChannel(institutionId, next);
      toast.success(`#${channel.name} created: everyone is in it`);
      setName('');
    } catch (err) {
      setError(fieldError(err, 'name') ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-1.5 border-t border-line px-4 py-4">
      <Label htmlFor={`${id}-name`}>New default channel</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <div className="relative min-w-0 flex-1">
          <span
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted"
          >
            #
          </span>
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
            placeholder="announcements"
            maxLength={NAME_MAX + 10}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-help`}
            className="pl-7"
          />
        </div>
        <Button type="submit" variant="outline" loading={busy} className="shrink-0">
          Create default channel
        </Button>
      </div>
      {error ? (
        <FieldMessage id={`${id}-help`} error>
          {error}
        </FieldMessage>
      ) : (
        <FieldMessage id={`${id}-help`}>
          A public channel everyone is in, now and after they join.
        </FieldMessage>
      )}
    </form>
  );
}
