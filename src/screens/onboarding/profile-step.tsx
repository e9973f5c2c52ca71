// The name-and-picture step a new account meets on /join (issue 15 item 3, decision 0045): "What should
// people call you?", with an optional picture. Shown above the workspace choices, not over them, so
// someone in a hurry can still go straight on; saving or "Not now" puts it away on this device.
import { ImagePlus, X } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import type { User } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import { PictureError, pictureDataUrl } from '../../components/agents/picture-data-url.ts';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FieldMessage, Input, Label } from '../../components/ui/input.tsx';
import { PictureFileInput } from '../../components/ui/picture-file-input.tsx';
import { markProfileStepDone } from '../../data/onboarding.ts';
import { updateProfile } from '../../data/session.ts';

export function ProfileStep({ user, onDone }: { user: User; onDone: () => void }) {
  const [name, setName] = useState('');
  const [picture, setPicture] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: 'name' | 'picture'; message: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  async function choose(file: File | undefined) {
    if (!file) return;
    try {
      setPicture(await pictureDataUrl(file));
      setError(null);
    } catch (err) {
      setError({ field: 'picture', message: err instanceof PictureError ? err.message : errorMessage(err) });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError({ field: 'name', message: 'Enter the name people will see' });
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await updateProfile({ name: name.trim(), ...(picture ? { profileImage: picture } : {}) });
      markProfileStepDone(user.id);
      onDone();
    } catch (err) {
      setError({ field: 'name', message: errorMessage(err) });
      setBusy(false);
    }
  }

  function later() {
    markProfileStepDone(user.id);
    onDone();
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-5 shadow-sm"
    >
      <div>
        <h2 id={`${id}-title`} className="text-sm font-semibold">
          What should people call you?
        </h2>
        <p className="mt-0.5 text-[13px] text-muted">Your name and picture show beside your messages.</p>
      </div>
      <div className="flex items-start gap-4">
        <div className="flex flex-col items-center gap-1.5">
          <Avatar id={user.id} name={name.trim() || user.email} src={picture} size="lg" />
          {picture ? (
            <Button type="button" variant="ghost" size="xs" onClick={() => setPicture(null)}>
              <X aria-hidden /> Remove
            </Button>
          ) : (
            <Button type="button" variant="ghost" size="xs" onClick={() => fileInput.current?.click()}>
              <ImagePlus aria-hidden /> Add picture
            </Button>
          )}
          <PictureFileInput
            inputRef={fileInput}
            label="Choose a picture"
            onChoose={(file) => void choose(file)}
          />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <Label htmlFor={`${id}-name`}>Your name</Label>
          <Input
            id={`${id}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder={user.name}
            autoComplete="name"
            maxLength={80}
            aria-invalid={error?.field === 'name' ? true : undefined}
          />
          {error ? (
            <FieldMessage error>{error.message}</FieldMessage>
          ) : (
            <FieldMessage>The picture is optional; you can add one later in Profile.</FieldMessage>
          )}
        </div>
      </div>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={later} disabled={busy}>
          Not now
        </Button>
        <Button type="submit" loading={busy}>
          Save
        </Button>
      </div>
    </form>
  );
}
