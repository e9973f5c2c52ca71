// A member's profile (/client/:clientId/directory/:memberId): who they are, their role, whether they
// are online, the channels they chose to show, and a button that starts a direct message. On your own
// profile you choose which of your channels to show. Opening it is recorded as a visit (metrics).
import { Check, Hash, Lock, Mail, MessageSquare, Pencil, SearchX, UserRound } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { notFound, ROUTE_ID } from '../app/http-status-error.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { AgentBadge, isAgent } from '../components/messages/agent-badge.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../components/ui/cn.ts';
import { Dialog } from '../components/ui/dialog.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { openDirectMessage } from '../components/workspace/direct-message.ts';
import { RoleBadge } from '../components/workspace/role-badge.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { setProfileChannels, useChannels } from '../data/channels.ts';
import { useMemberProfile } from '../data/members.ts';
import { visitMember } from '../data/visits.ts';

export function MemberProfileScreen() {
  const { memberId = '' } = useParams();
  const location = useLocation();
  const { institution, me } = useWorkspace();
  const profile = useMemberProfile(institution.id, memberId);
  const joined = useChannels(institution.id);
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const member = profile?.member;
  usePageTitle(member ? member.name || member.email : 'Profile');

  useEffect(() => {
    if (ROUTE_ID.test(memberId) && memberId !== me.id) visitMember(institution.id, memberId);
  }, [institution.id, memberId, me.id]);

  if (!ROUTE_ID.test(memberId)) throw notFound(location.pathname);
  if (profile === undefined) return <Spinner />;
  if (!profile || !member || member.institutionId !== institution.id) {
    return (
      <div className="flex min-h-0 flex-1 flex-col">
        <ScreenHeader title="Profile" icon={<UserRound />} />
        <EmptyState
          icon={SearchX}
          title="This person is not in the workspace"
          action={
            <Button variant="outline" asChild>
              <Link to={`/client/${institution.id}/directory`}>Back to the directory</Link>
            </Button>
          }
        >
          They may have left, or the link is wrong.
        </EmptyState>
      </div>
    );
  }

  const isMe = member.id === me.id;
  const name = member.name || member.email;
  const joinedIds = new Set(joined?.channels.map((c) => c.id));
  const since = new Date(member.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'long' });

  async function message() {
    setOpening(true);
    await openDirectMessage(navigate, institution.id, member?.id ?? '');
    setOpening(false);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title={name}
        icon={<UserRound />}
        subtitle={
          <Link to={`/client/${institution.id}/directory`} className="hover:underline">
            Directory
          </Link>
        }
      />
      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto w-full max-w-2xl px-4 py-6 md:px-8 md:py-10">
          <section className="flex flex-col items-center gap-4 text-center sm:flex-row sm:items-center sm:text-left">
            <Avatar id={member.id} name={name} src={member.profileImage} size="xl" />
            <div className="min-w-0 flex-1">
              <h2 className="truncate text-2xl font-semibold tracking-tight">{name}</h2>
              <div className="mt-1.5 flex flex-wrap items-center justify-center gap-2 sm:justify-start">
                {isAgent(member) ? (
                  <AgentBadge className="h-5 px-1.5 text-[11px]" />
                ) : (
                  <RoleBadge role={member.role} />
                )}
                {isAgent(member) ? (
                  <span className="text-[13px] text-muted">Answers when mentioned or messaged</span>
                ) : (
                  <span
                    className={cn(
                      'inline-flex items-center gap-1.5 text-[13px]',
                      member.user.isOnline ? 'text-emerald-700 dark:text-emerald-400' : 'text-muted',
                    )}
                    data-testid="presence"
                  >
                    <span
                      className={cn(
                        'size-2 rounded-full',
                        member.user.isOnline ? 'bg-emerald-500' : 'bg-faint',
                      )}
                      aria-hidden
                    />
                    {member.user.isOnline ? 'Online' : 'Offline'}
                  </span>
                )}
              </div>
            </div>
            <div className="flex gap-2">
              {isMe ? (
                <Button variant="outline" asChild>
                  <Link to={`/client/${institution.id}/profile`}>
                    <Pencil aria-hidden />
                    Edit profile
                  </Link>
                </Button>
              ) : (
                <Button onClick={() => void message()} loading={opening}>
                  <MessageSquare aria-hidden />
                  Message
                </Button>
              )}
            </div>
          </section>

          <dl className="mt-8 grid gap-px overflow-hidden rounded-xl border border-line bg-line sm:grid-cols-2">
            {isAgent(member) ? (
              <Fact label="Kind">AI agent</Fact>
            ) : (
              <Fact label="E-mail">
                <a
                  href={`mailto:${member.email}`}
                  className="inline-flex min-w-0 items-center gap-1.5 hover:underline"
                >
                  <Mail className="size-3.5 shrink-0 text-muted" aria-hidden />
                  <span className="truncate">{member.email}</span>
                </a>
              </Fact>
            )}
            <Fact label={`Member of ${institution.name}`}>since {since}</Fact>
          </dl>

          <section className="mt-8" aria-labelledby="profile-channels">
            <div className="mb-2 flex items-center justify-between">
              <h3 id="profile-channels" className="text-xs font-semibold tracking-wide text-muted uppercase">
                Channels
              </h3>
              {isMe ? (
                <Button size="xs" variant="ghost" onClick={() => setChoosing(true)}>
                  Choose channels
                </Button>
              ) : null}
            </div>
            {profile.channels.length === 0 ? (
              <p className="rounded-xl border border-dashed border-line-strong px-4 py-6 text-center text-[13px] text-muted">
                {isMe
                  ? 'Show the channels you care about most on your profile.'
                  : `${name} hasn't chosen channels to show.`}
              </p>
            ) : (
              <ul className="flex flex-wrap gap-2">
                {profile.channels.map((c) => {
                  const Icon = c.type === 'private' ? Lock : Hash;
                  const body = (
                    <>
                      <Icon className="size-3.5 text-muted" aria-hidden />
                      {c.name}
                    </>
                  );
                  const chip =
                    'inline-flex h-8 items-center gap-1.5 rounded-lg border border-line bg-surface px-3 text-[13px] font-medium';
                  return (
                    <li key={c.id}>
                      {joinedIds.has(c.id) ? (
                        <Link
                          to={`/client/${institution.id}/channel/${c.id}`}
                          className={cn(chip, 'hover:bg-hover')}
                        >
                          {body}
                        </Link>
                      ) : (
                        <span className={chip}>{body}</span>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
      </div>
      {isMe ? (
        <ProfileChannelsDialog
          open={choosing}
          onOpenChange={setChoosing}
          chosen={profile.channels.map((c) => c.id)}
        />
      ) : null}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 bg-surface px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 truncate text-sm">{children}</dd>
    </div>
  );
}

function ProfileChannelsDialog({
  open,
  onOpenChange,
  chosen,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  chosen: string[];
}) {
  const { institution } = useWorkspace();
  const joined = useChannels(institution.id);
  const [picked, setPicked] = useState<Set<string>>(new Set(chosen));
  const [busy, setBusy] = useState(false);
  const channels = useMemo(
    () =>
      (joined?.channels ?? [])
        .filter((c) => c.type !== 'direct_message')
        .sort((a, b) => a.name.localeCompare(b.name)),
    [joined],
  );

  async function save() {
    setBusy(true);
    try {
      await setProfileChannels(institution.id, [...picked]);
      onOpenChange(false);
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (o) setPicked(new Set(chosen));
        onOpenChange(o);
      }}
      title="Channels on your profile"
      description="People who open your profile see these."
    >
      <ul className="-mx-2 flex max-h-72 flex-col overflow-y-auto pt-1">
        {channels.map((c) => {
          const on = picked.has(c.id);
          const Icon = c.type === 'private' ? Lock : Hash;
          return (
            <li key={c.id}>
              <label className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-hover">
                <input
                  type="checkbox"
                  checked={on}
                  onChange={() => {
                    const next = new Set(picked);
                    if (on) next.delete(c.id);
                    else next.add(c.id);
                    setPicked(next);
                  }}
                  className="size-4 accent-[var(--accent)]"
                />
                <Icon className="size-4 text-muted" aria-hidden />
                <span className="min-w-0 flex-1 truncate text-sm">{c.name}</span>
                {on ? <Check className="size-4 text-accent" aria-hidden /> : null}
              </label>
            </li>
          );
        })}
      </ul>
      <div className="flex justify-end gap-2 pt-3">
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={busy}>
          Save
        </Button>
      </div>
    </Dialog>
  );
}
