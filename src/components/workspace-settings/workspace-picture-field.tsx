// Workspace settings → the workspace's picture: shown in the workspace menu and the switcher for everyone.
// Chosen from the device, scaled down to a small data URL (as a profile picture is: an <img> cannot send
// the token a stored file needs), saved at once; Remove goes back to the initials (decision 0054).
import { ImagePlus, X } from 'lucide-react';
import { useRef, useState } from 'react';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { setWorkspacePicture } from '../../data/workspace-settings.ts';
import { fieldError } from '../../store/api-error.ts';
import { PictureError, pictureDataUrl } from '../agents/picture-data-url.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { FieldMessage } from '../ui/input.tsx';
import { PictureFileInput } from '../ui/picture-file-input.tsx';

interface Props {
  institution: { id: string; name: string; picture?: string | null };
  /** The name as typed, so the initials follow it before it is saved. */
  shownName: string;
}

export function WorkspacePictureField({ institution, shownName }: Props) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const picture = institution.picture ?? null;

  async function save(next: string | null, done: string) {
    setBusy(true);
    setError(null);
    try {
      await setWorkspacePicture(institution.id, next);
      toast.success(done);
    } catch (err) {
      setError(fieldError(err, 'picture') ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function choose(file: File | undefined) {
    if (!file) return;
    try {
      await save(await pictureDataUrl(file), 'Workspace picture saved');
    } catch (err) {
      setError(err instanceof PictureError ? err.message : errorMessage(err));
    }
  }

  return (
    <div className="flex shrink-0 flex-col items-center gap-1.5">
      <Avatar id={institution.id} name={shownName} src={picture} size="lg" />
      <div className="flex flex-col items-center gap-0.5">
        <Button
          type="button"
          variant="outline"
          size="xs"
          loading={busy}
          onClick={() => fileInput.current?.click()}
        >
          <ImagePlus aria-hidden /> {picture ? 'Change' : 'Add picture'}
        </Button>
        {picture ? (
          <Button
            type="button"
            variant="ghost"
            size="xs"
            disabled={busy}
            onClick={() => void save(null, 'Workspace picture removed')}
          >
            <X aria-hidden /> Remove
          </Button>
        ) : null}
      </div>
      <PictureFileInput
        inputRef={fileInput}
        label="Choose a workspace picture"
        onChoose={(file) => void choose(file)}
      />
      {error ? (
        <div className="max-w-36 text-center">
          <FieldMessage error>{error}</FieldMessage>
        </div>
      ) : null}
    </div>
  );
}
