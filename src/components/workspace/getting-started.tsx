// A new workspace's getting-started checklist (issue 15 item 3, decision 0045): invite people, create a
// channel, say hello. Each item ticks from the workspace's real state (GET .../checklist), never by
// hand; the list goes once all three are done or when its person puts it away (remembered per
// workspace, on every device). Shown to the workspace's admins: they are the ones who can invite.
import { Check, Hash, MessageCircle, Plus, UserPlus, X } from 'lucide-react';
import { Link } from 'react-router';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useChannels } from '../../data/channels.ts';
import { dismissChecklist, useChecklist, useSaidHello } from '../../data/onboarding.ts';
import { useWorkspacePermissions } from '../../data/workspaces.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { ProgressBar } from '../ui/progress.tsx';

export function GettingStarted({
  onInvite,
  onCreateChannel,
  compact = false,
}: {
  onInvite: () => void;
  onCreateChannel: () => void;
  /** The phone's sidebar: tighter, without the introduction line. */
  compact?: boolean;
}) {
  const { institution, me } = useWorkspace();
  const permissions = useWorkspacePermissions(institution.id);
  const isAdmin = permissions?.canManageMembers ?? false;
  const { data } = useChecklist(isAdmin ? institution.id : '');
  const joined = useChannels(institution.id);
  const saidHello = useSaidHello(institution.id, me.id, data?.sayHello === false);
  if (!isAdmin || !data || data.dismissed) return null;
  const sayHello = data.sayHello || saidHello;
  const done = [data.invitePeople, data.createChannel, sayHello].filter(Boolean).length;
  if (done === 3) return null;
  const general =
    joined?.channels.find((c) => c.isDefault) ?? joined?.channels.find((c) => c.type !== 'direct_message');

  const items = [
    {
      key: 'invite',
      done: data.invitePeople,
      icon: UserPlus,
      title: 'Invite people',
      hint: 'By e-mail or with a link.',
      action: (
        <Button size="sm" variant="outline" onClick={onInvite}>
          Invite
        </Button>
      ),
    },
    {
      key: 'channel',
      done: data.createChannel,
      icon: Plus,
      title: 'Create a channel',
      hint: 'One topic, one place.',
      action: (
        <Button size="sm" variant="outline" onClick={onCreateChannel}>
          Create
        </Button>
      ),
    },
    {
      key: 'hello',
      done: sayHello,
      icon: MessageCircle,
      title: 'Say hello',
      hint: general ? `Post your first message in #${general.name}.` : 'Post your first message.',
      action: general ? (
        <Button size="sm" variant="outline" asChild>
          <Link to={`/client/${institution.id}/channel/${general.id}`}>
            <Hash aria-hidden /> Open
          </Link>
        </Button>
      ) : null,
    },
  ];

  return (
    <section
      aria-labelledby="getting-started-title"
      className={cn('rounded-xl border border-line bg-surface shadow-sm', compact ? 'mt-3 p-3' : 'p-4')}
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="getting-started-title" className="text-sm font-semibold">
            Get started
          </h2>
          <p className="text-[13px] text-muted">
            {done} of 3 done{compact ? '' : ` — a few steps to make ${institution.name} feel like home.`}
          </p>
        </div>
        <Button
          size="icon"
          variant="ghost"
          className="-mt-1 -mr-1 size-8"
          aria-label="Dismiss the checklist"
          onClick={() => void dismissChecklist(institution.id).catch(notifyError)}
        >
          <X aria-hidden />
        </Button>
      </div>
      <ProgressBar value={done} max={3} label="Checklist progress" className="mt-3" />
      <ul className="mt-3 flex flex-col gap-1">
        {items.map((item) => (
          <li
            key={item.key}
            className="flex items-center gap-3 rounded-lg py-1.5"
            aria-label={`${item.title}${item.done ? ', done' : ''}`}
          >
            <span
              className={cn(
                'flex size-7 shrink-0 items-center justify-center rounded-full',
                item.done ? 'bg-primary text-primary-fg' : 'bg-accent-soft text-accent-fg',
              )}
              aria-hidden
            >
              {item.done ? <Check className="size-4" /> : <item.icon className="size-4" />}
            </span>
            <span className="min-w-0 flex-1">
              <span className={cn('block text-sm font-medium', item.done && 'text-muted line-through')}>
                {item.title}
              </span>
              {compact || item.done ? null : (
                <span className="block text-[13px] text-muted">{item.hint}</span>
              )}
            </span>
            {item.done ? null : item.action}
          </li>
        ))}
      </ul>
    </section>
  );
}
