// The activity feed (issue 4 item 6): mentions of me, replies to my messages and reactions to them,
// newest first; unread ones are marked until opened or marked read.
import { AtSign, Bell, CheckCheck, CornerUpLeft, SmilePlus } from 'lucide-react';
import { useState } from 'react';
import type { Activity } from '../../schemas/protocol/index.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { MessageCard } from '../components/messages/message-card.tsx';
import { Button } from '../components/ui/button.tsx';
import { cn } from '../components/ui/cn.ts';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { markActivitiesRead, useActivities } from '../data/activities.ts';

type Filter = 'all' | Activity['type'];
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'mention', label: 'Mentions' },
  { value: 'reply', label: 'Replies' },
  { value: 'reaction', label: 'Reactions' },
];

export function ActivityScreen() {
  const workspace = useWorkspace();
  const institutionId = workspace.institution.id;
  const feed = useActivities(institutionId);
  const [filter, setFilter] = useState<Filter>('all');
  usePageTitle('Activity');
  const shown = (feed?.activities ?? []).filter((a) => filter === 'all' || a.type === filter);

  function activityLine(a: Activity) {
    const actor = workspace.membersById.get(a.actorMemberId);
    const who = actor?.name || actor?.email || 'Someone';
    if (a.type === 'mention')
      return (
        <span className="inline-flex items-center gap-1">
          <AtSign className="size-3" aria-hidden /> {who} mentioned you
        </span>
      );
    if (a.type === 'reply')
      return (
        <span className="inline-flex items-center gap-1">
          <CornerUpLeft className="size-3" aria-hidden /> {who} replied to you
        </span>
      );
    return (
      <span className="inline-flex items-center gap-1">
        <SmilePlus className="size-3" aria-hidden /> {who} reacted {a.emoji} to your message
      </span>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title="Activity"
        icon={<Bell />}
        subtitle={feed?.unread ? `${feed.unread} unread` : undefined}
        actions={
          feed?.unread ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => void markActivitiesRead(institutionId, 'all').catch(notifyError)}
            >
              <CheckCheck aria-hidden />
              Mark all read
            </Button>
          ) : null
        }
      />
      <ScreenBody>
        <div role="tablist" aria-label="Show" className="mb-3 flex gap-1">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              role="tab"
              aria-selected={filter === f.value}
              onClick={() => setFilter(f.value)}
              className={cn(
                'h-7 rounded-full border px-3 text-[12px] font-medium',
                filter === f.value
                  ? 'border-primary bg-primary text-primary-fg'
                  : 'border-line text-muted hover:bg-hover hover:text-fg',
              )}
            >
              {f.label}
            </button>
          ))}
        </div>
        {feed === undefined ? (
          <Spinner />
        ) : shown.length === 0 ? (
          <EmptyState icon={Bell} title="Nothing here yet">
            Mentions of you, replies to your messages and reactions to them will show up here.
          </EmptyState>
        ) : (
          <ul className="space-y-2" aria-label="Activity">
            {shown.map((a) => (
              <li key={a.id}>
                <MessageCard
                  message={a.message}
                  actorMemberId={a.actorMemberId}
                  eyebrow={activityLine(a)}
                  unread={!a.read}
                  onOpen={() =>
                    a.read ? undefined : void markActivitiesRead(institutionId, [a.id]).catch(() => {})
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </ScreenBody>
    </div>
  );
}
