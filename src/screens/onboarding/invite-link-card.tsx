// What /join?invite={token} shows (decision 0045): the workspace an invite link leads to, who shared it,
// and one button to join; or the server's sentence when the link is no longer valid.
import { Link2Off } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../app/notify.ts';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FieldMessage } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/states.tsx';
import { joinByInviteLink, useInviteLinkPreview } from '../../data/onboarding.ts';

export function InviteLinkCard({ token }: { token: string }) {
  const preview = useInviteLinkPreview(token);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const frame = 'flex flex-col gap-4 rounded-xl border border-line bg-surface p-5 shadow-sm';

  if (preview.data === undefined) {
    if (preview.error) {
      return (
        <section className={frame} aria-label="Invite link">
          <div className="flex items-start gap-3">
            <Link2Off className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
            <p className="text-sm">{preview.error}</p>
          </div>
        </section>
      );
    }
    return <Spinner className="p-6" label="Opening the invite link" />;
  }
  const { institution, inviterName, isMember } = preview.data;

  async function join() {
    setBusy(true);
    setError(null);
    try {
      const id = await joinByInviteLink(token);
      void navigate(`/client/${id}`, { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <section className={frame} aria-label="Invite link">
      <div className="flex items-center gap-3">
        <Avatar id={institution.id} name={institution.name} size="md" />
        <div className="min-w-0">
          <h2 className="truncate text-sm font-semibold">{institution.name}</h2>
          <p className="text-[13px] text-muted">
            {isMember
              ? 'You are already a member of this workspace.'
              : inviterName
                ? `${inviterName} invited you to join.`
                : 'You were invited to join.'}
          </p>
        </div>
      </div>
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      {isMember ? (
        <Button onClick={() => void navigate(`/client/${institution.id}`, { replace: true })}>
          Open {institution.name}
        </Button>
      ) : (
        <Button onClick={() => void join()} loading={busy}>
          Join {institution.name}
        </Button>
      )}
    </section>
  );
}
