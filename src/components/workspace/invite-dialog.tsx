// Invite people by e-mail; they see the invitation on their Join page after signing in.
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../app/notify.ts';
import { inviteMembers } from '../../data/workspaces.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Label } from '../ui/input.tsx';

/** Splits pasted text on commas, semicolons, spaces and new lines. */
export function parseEmails(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export function InviteDialog({
  institutionId,
  institutionName,
  open,
  onOpenChange,
}: {
  institutionId: string;
  institutionName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const emails = parseEmails(text);
    if (emails.length === 0) return setError('Enter at least one e-mail address');
    setBusy(true);
    setError(null);
    try {
      await inviteMembers(institutionId, emails);
      toast.success(
        emails.length === 1 ? `Invitation sent to ${emails[0]}` : `${emails.length} invitations sent`,
      );
      setText('');
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
      onOpenChange={onOpenChange}
      title={`Invite people to ${institutionName}`}
      description="They will find the invitation after signing in with that address."
    >
      <form onSubmit={submit} className="flex flex-col gap-4 pt-2" noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-emails`}>E-mail addresses</Label>
          <textarea
            id={`${id}-emails`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            placeholder="ada@company.com, grace@company.com"
            className="w-full resize-none rounded-md border border-line-strong bg-surface px-3 py-2 text-sm outline-none placeholder:text-faint focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-ring"
            autoFocus
          />
          {error ? (
            <FieldMessage error>{error}</FieldMessage>
          ) : (
            <FieldMessage>Separate addresses with commas.</FieldMessage>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Send invitations
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
