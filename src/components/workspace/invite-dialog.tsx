// Invite people by e-mail; they see the invitation on their Join page after signing in.
import { type FormEvent, useId, useState } from 'react';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { refreshChecklist } from '../../data/onboarding.ts';
import { inviteMembers, useWorkspacePermissions } from '../../data/workspaces.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Label } from '../ui/input.tsx';
import { TagsInput, withPending } from '../ui/tags-input.tsx';
import { EMAILS_AT_ONCE, emailProblem, normalizeEmail } from './email-list.ts';
import { InviteLinkSection } from './invite-link-section.tsx';

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
  const [emails, setEmails] = useState<string[]>([]);
  const [typing, setTyping] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  // Admins also get the shareable invite link (decision 0045).
  const canShareLink = useWorkspacePermissions(institutionId)?.canManageMembers ?? false;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // An address still being typed is sent too.
    const all = withPending(emails, typing, { max: EMAILS_AT_ONCE, normalize: normalizeEmail });
    setEmails(all);
    setTyping('');
    if (all.length === 0) return setError('Enter at least one e-mail address');
    const problem = all.map(emailProblem).find(Boolean);
    if (problem) return setError(`${problem}: correct or remove it`);
    setBusy(true);
    setError(null);
    try {
      await inviteMembers(institutionId, all);
      void refreshChecklist(institutionId);
      toast.success(all.length === 1 ? `Invitation sent to ${all[0]}` : `${all.length} invitations sent`);
      setEmails([]);
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
          <TagsInput
            id={`${id}-emails`}
            tags={emails}
            onChange={(next) => {
              setEmails(next);
              setError(null);
            }}
            text={typing}
            onTextChange={setTyping}
            rules={{ max: EMAILS_AT_ONCE, normalize: normalizeEmail }}
            validate={emailProblem}
            placeholder="ada@company.com, grace@company.com"
            invalid={Boolean(error)}
            describedBy={`${id}-help`}
            autoFocus
          />
          {error ? (
            <FieldMessage id={`${id}-help`} error>
              {error}
            </FieldMessage>
          ) : (
            <FieldMessage id={`${id}-help`}>
              Press Enter or type a comma after each address, or paste a list.
            </FieldMessage>
          )}
        </div>
        <div className="flex justify-end gap-2 pb-4">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Send invitations
          </Button>
        </div>
      </form>
      {canShareLink ? <InviteLinkSection institutionId={institutionId} /> : null}
    </Dialog>
  );
}
