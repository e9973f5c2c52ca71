// Workspace settings → Name and picture: what everyone sees in the workspace menu, the switcher and
// invitation e-mails. A refusal says its sentence beside the field (decision 0048); the picture is saved
// on its own, at once (workspace-picture-field.tsx).
import { type FormEvent, useEffect, useId, useState } from 'react';
import { NAME_MAX } from '../../../schemas/protocol/limits.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { renameWorkspace } from '../../data/workspace-settings.ts';
import { fieldError } from '../../store/api-error.ts';
import { Button } from '../ui/button.tsx';
import { CharacterCount, FieldMessage, Input, Label } from '../ui/input.tsx';
import { WorkspacePictureField } from './workspace-picture-field.tsx';

export function WorkspaceIdentitySection({
  institution,
}: {
  institution: { id: string; name: string; picture?: string | null };
}) {
  const [name, setName] = useState(institution.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  // A rename from another tab or admin arrives through the store: follow it unless something is typed.
  const [shown, setShown] = useState(institution.name);
  useEffect(() => {
    if (institution.name !== shown) {
      if (name === shown) setName(institution.name);
      setShown(institution.name);
    }
  }, [institution.name, shown, name]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const next = name.trim();
    if (!next) return setError('Enter the name people will see');
    if ([...next].length > NAME_MAX) return setError(`A workspace name has at most ${NAME_MAX} characters`);
    setBusy(true);
    setError(null);
    try {
      await renameWorkspace(institution.id, next);
      setName(next);
      toast.success('Workspace renamed');
    } catch (err) {
      setError(fieldError(err, 'name') ?? errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const dirty = name.trim() !== institution.name;
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">
        Name and picture
      </h2>
      <form
        onSubmit={submit}
        noValidate
        className="flex items-start gap-4 rounded-lg border border-line bg-surface px-4 py-4"
      >
        <WorkspacePictureField institution={institution} shownName={name.trim() || institution.name} />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex items-baseline justify-between gap-2">
            <Label htmlFor={`${id}-name`}>Workspace name</Label>
            <CharacterCount value={name.trim()} max={NAME_MAX} />
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={`${id}-name`}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${id}-help`}
              autoComplete="organization"
              className="min-w-0 sm:flex-1"
            />
            <Button type="submit" loading={busy} disabled={!dirty} className="shrink-0">
              Save name
            </Button>
          </div>
          {error ? (
            <FieldMessage id={`${id}-help`} error>
              {error}
            </FieldMessage>
          ) : (
            <FieldMessage id={`${id}-help`}>
              Everyone sees it in the workspace menu and in the invitations you send.
            </FieldMessage>
          )}
        </div>
      </form>
    </section>
  );
}
