// Profile: the signed-in person's name and picture (a URL for now; uploads come with files).
import { User } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { FieldMessage, Input, Label } from '../components/ui/input.tsx';
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

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    const url = picture.trim();
    if (url && !/^https?:\/\//i.test(url)) return setError('The picture must be an http(s) address');
    setBusy(true);
    setError(null);
    try {
      await updateProfile({ name: name.trim(), profileImage: url || null });
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
            <Avatar id={me.id} name={name || user.email} src={picture.trim() || null} size="lg" />
            <div className="min-w-0">
              <p className="truncate text-base font-semibold">{name || user.email}</p>
              <p className="truncate text-[13px] text-muted">{user.email}</p>
            </div>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-name`}>Display name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="name"
              maxLength={80}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-picture`}>Picture URL</Label>
            <Input
              id={`${id}-picture`}
              type="url"
              value={picture}
              onChange={(e) => setPicture(e.target.value)}
              placeholder="https://…"
              autoComplete="photo"
            />
            <FieldMessage>Leave empty to show your initials.</FieldMessage>
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
