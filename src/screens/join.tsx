// Create or join a workspace (/join): pending invitations to accept, and a form to start a new one.
import { ArrowRight, Building2, Mail } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NAME_MAX } from '../../schemas/protocol/limits.ts';
import { AuthFrame } from '../app/auth-layout.tsx';
import { errorMessage, notifyError } from '../app/notify.ts';
import { logout } from '../app/session-exit.ts';
import { usePageTitle } from '../app/title.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { CharacterCount, FieldMessage, Input, Label } from '../components/ui/input.tsx';
import { needsProfileStep } from '../data/onboarding.ts';
import { refreshSignedInUser, useSession } from '../data/session.ts';
import {
  acceptInvitation,
  createInstitution,
  declineInvitation,
  refreshInstitutions,
  useInstitutions,
  useInvitations,
} from '../data/workspaces.ts';
import { InviteLinkCard } from './onboarding/invite-link-card.tsx';
import { ProfileStep } from './onboarding/profile-step.tsx';

export function JoinScreen() {
  usePageTitle('Create or join a workspace');
  const session = useSession();
  // The welcome names the person as the server has them now (renamed on another device, say).
  useEffect(() => {
    void refreshSignedInUser().catch(() => undefined);
  }, []);
  const invitations = useInvitations();
  const institutions = useInstitutions();
  const navigate = useNavigate();
  const [accepting, setAccepting] = useState<string | null>(null);
  // An invite link (decision 0045) leads here with its token; signed out, sign-in brings the person back.
  const [search] = useSearchParams();
  const inviteToken = search.get('invite');
  // Re-read after the step is saved or put off (it remembers that outside the store).
  const [, setProfileAnswered] = useState(0);
  const user = session?.user;

  useEffect(() => {
    void refreshInstitutions().catch(() => {});
  }, []);

  async function decline(invitationId: string) {
    setAccepting(invitationId);
    try {
      await declineInvitation(invitationId);
    } catch (err) {
      notifyError(err);
    } finally {
      setAccepting(null);
    }
  }

  async function accept(institutionId: string) {
    setAccepting(institutionId);
    try {
      await acceptInvitation(institutionId);
      void navigate(`/client/${institutionId}`);
    } catch (err) {
      notifyError(err);
    } finally {
      setAccepting(null);
    }
  }

  return (
    <AuthFrame>
      <div className="flex flex-col gap-4">
        <div className="px-1">
          <h1 className="text-xl font-semibold tracking-tight">
            Welcome{session?.user.name ? `, ${session.user.name}` : ''}
          </h1>
          <p className="mt-1 text-[13px] text-muted">Join your team's workspace or start a new one.</p>
        </div>

        {inviteToken ? <InviteLinkCard token={inviteToken} /> : null}

        {user && needsProfileStep(user) ? (
          <ProfileStep user={user} onDone={() => setProfileAnswered((n) => n + 1)} />
        ) : null}

        {invitations && invitations.length > 0 ? (
          <section
            className="rounded-xl border border-line bg-surface p-2 shadow-sm"
            aria-label="Invitations"
          >
            <h2 className="flex items-center gap-2 px-3 pt-2 pb-1 text-xs font-semibold text-muted">
              <Mail className="size-3.5" aria-hidden /> Invitations
            </h2>
            <ul>
              {invitations.map((inv) => (
                <li key={inv.id} className="flex items-center gap-3 rounded-lg px-3 py-2">
                  <Avatar id={inv.institutionId} name={inv.institution.name} size="md" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{inv.institution.name}</span>
                    <span className="block truncate text-xs text-muted">Invited as {inv.email}</span>
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={accepting !== null}
                    loading={accepting === inv.id}
                    onClick={() => void decline(inv.id)}
                  >
                    Decline
                  </Button>
                  <Button
                    size="sm"
                    disabled={accepting !== null}
                    loading={accepting === inv.institutionId}
                    onClick={() => void accept(inv.institutionId)}
                  >
                    Join
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {institutions && institutions.length > 0 ? (
          <section
            className="rounded-xl border border-line bg-surface p-2 shadow-sm"
            aria-label="Your workspaces"
          >
            <h2 className="px-3 pt-2 pb-1 text-xs font-semibold text-muted">Your workspaces</h2>
            <ul>
              {institutions.map((i) => (
                <li key={i.id}>
                  <Link
                    to={`/client/${i.id}`}
                    className="flex items-center gap-3 rounded-lg px-3 py-2 hover:bg-hover"
                  >
                    <Avatar id={i.id} name={i.name} size="md" />
                    <span className="min-w-0 flex-1 truncate text-sm font-medium">{i.name}</span>
                    <ArrowRight className="size-4 text-muted" aria-hidden />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <CreateWorkspace />

        <p className="text-center text-[13px] text-muted">
          Signed in as {session?.user.email}.{' '}
          <Button
            variant="link"
            size="sm"
            className="h-auto text-[13px]"
            onClick={() => void logout(navigate)}
          >
            Sign out
          </Button>
        </p>
      </div>
    </AuthFrame>
  );
}

function CreateWorkspace() {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError('Name cannot be empty');
    setBusy(true);
    setError(null);
    try {
      const institution = await createInstitution(name.trim());
      void navigate(`/client/${institution.id}`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-5 shadow-sm"
    >
      <div className="flex items-center gap-2">
        <Building2 className="size-4 text-accent" aria-hidden />
        <h2 className="text-sm font-semibold">Create a workspace</h2>
      </div>
      <div className="flex flex-col gap-1.5">
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={`${id}-name`}>Workspace name</Label>
          <CharacterCount value={name.trim()} max={NAME_MAX} />
        </div>
        <Input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. Acme Field Team"
          maxLength={NAME_MAX}
          aria-invalid={error ? true : undefined}
        />
        {error ? <FieldMessage error>{error}</FieldMessage> : null}
      </div>
      <Button type="submit" loading={busy}>
        Create workspace
      </Button>
    </form>
  );
}
