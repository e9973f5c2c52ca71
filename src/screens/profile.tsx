// Profile: the signed-in person's name and picture, chosen from the device (issue 15 item 7) and stored as
// a small data URL as the onboarding step does (picture-data-url.ts).
import { ImagePlus, User, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { NAME_MAX } from '../../schemas/protocol/limits.ts';
import { errorMessage } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { toast } from '../app/toast.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { PictureError, pictureDataUrl } from '../components/agents/picture-data-url.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { CharacterCount, FieldMessage, Input, Label } from '../components/ui/input.tsx';
import { PictureFileInput } from '../components/ui/picture-file-input.tsx';
import { Spinner } from '../components/ui/states.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { refreshMembers } from '../data/members.ts';
import { updateProfile, useSession } from '../data/session.ts';

export function ProfileScreen() {
  usePageTitle('Profile');
  const session = useSession();
  const { institution, me } = useWorkspace();
  const [name, setName] = useState('');
  const [picture, setPicture] = useState('');
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const user = session?.user;
  useEffect(() => {
    if (user && loadedFor !== user.id) {
      setName(user.name);
      setPicture(user.profileImage ?? '');
      setLoadedFor(user.id);
    }
  }, [user, loadedFor]);

  if (!user) return <Spinner />;

  async function choose(file: File | undefined) {
    if (!file) return;
    try {
      setPicture(await pictureDataUrl(file));
      setError(null);
    } catch (err) {
      setError(err instanceof PictureError ? err.message : errorMessage(err));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    setBusy(true);
    setError(null);
    try {
      await updateProfile({ name: name.trim(), profileImage: picture || null });
      await refreshMembers(institution.id).catch(() => {});
      toast.success('Profile saved');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const dirty = name !== user.name || picture !== (user.profileImage ?? '');
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Profile" icon={<User />} />
      <ScreenBody>
        <form onSubmit={submit} className="flex max-w-lg flex-col gap-6" noValidate>
          <div className="flex items-center gap-4">
            <Avatar id={me.id} name={name || user.email} src={picture || null} size="lg" />
            <div className="min-w-0">
              <p className="truncate text-base font-semibold">{name || user.email}</p>
              <p className="truncate text-[13px] text-muted">{user.email}</p>
              <div className="mt-1 flex gap-1">
                <Button type="button" variant="outline" size="xs" onClick={() => fileInput.current?.click()}>
                  <ImagePlus aria-hidden /> {picture ? 'Change picture' : 'Upload picture'}
                </Button>
                {picture ? (
                  <Button type="button" variant="ghost" size="xs" onClick={() => setPicture('')}>
                    <X aria-hidden /> Remove
                  </Button>
                ) : null}
              </div>
              <PictureFileInput
                inputRef={fileInput}
                label="Choose a picture"
                onChoose={(file) => void choose(file)}
              />
            </div>
          </div>
          <div className="flex flex-col gap-1.5">
            <div className="flex items-baseline justify-between gap-2">
              <Label htmlFor={`${id}-name`}>Display name</Label>
              <CharacterCount value={name.trim()} max={NAME_MAX} />
            </div>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="name"
              maxLength={NAME_MAX}
            />
          </div>
          {error ? <FieldMessage error>{error}</FieldMessage> : null}
          <div>
            <Button type="submit" loading={busy} disabled={!dirty}>
              Save profile
            </Button>
          </div>
        </form>
      </ScreenBody>
    </div>
  );
}
