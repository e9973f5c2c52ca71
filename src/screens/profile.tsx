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
import { refreshSignedInUser, updateProfile, useSession } from '../data/session.ts';

export function ProfileScreen() {
  usePageTitle('Profile');
  const session = useSession();
  const { institution, me } = useWorkspace();
  const [name, setName] = useState('');
  const [picture, setPicture] = useState('');
  // What the form was filled with: a newer copy of the person (from another device) replaces an untouched
  // form, never one being edited.
  const [loaded, setLoaded] = useState<{ name: string; picture: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const user = session?.user;
  useEffect(() => {
    void refreshSignedInUser().catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!user) return;
    const next = { name: user.name, picture: user.profileImage ?? '' };
    if (loaded && (loaded.name !== name || loaded.picture !== picture)) return;
    if (loaded?.name === next.name && loaded.picture === next.picture) return;
    setName(next.name);
    setPicture(next.picture);
    setLoaded(next);
  }, [user, loaded, name, picture]);

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

  const saved = user;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    setBusy(true);
    setError(null);
    try {
      // Only what was changed here: a field left alone keeps what another device may have saved since.
      const patch = {
        ...(name.trim() !== saved.name ? { name: name.trim() } : {}),
        ...(picture !== (saved.profileImage ?? '') ? { profileImage: picture || null } : {}),
      };
      if (Object.keys(patch).length > 0) await updateProfile(patch);
      setName(name.trim());
      setLoaded({ name: name.trim(), picture });
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
