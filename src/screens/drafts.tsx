// Drafts (spec §2): one per channel, newest first; opening one goes to its channel's composer.
import { formatDistanceToNow } from 'date-fns';
import { Hash, PenLine } from 'lucide-react';
import { Link } from 'react-router';
import { usePageTitle } from '../app/title.ts';
import { channelLabel, useWorkspace } from '../app/workspace-context.ts';
import { htmlPreview } from '../components/messages/message-html.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { useChannels } from '../data/channels.ts';
import { useDrafts } from '../data/drafts.ts';

export function DraftsScreen() {
  usePageTitle('Drafts');
  const workspace = useWorkspace();
  const { institution } = workspace;
  const drafts = useDrafts(institution.id);
  const joined = useChannels(institution.id);
  const channels = new Map(joined?.channels.map((c) => [c.id, c]));

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Drafts" icon={<PenLine />} />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {drafts === undefined ? (
          <Spinner />
        ) : drafts.length === 0 ? (
          <EmptyState icon={PenLine} title="No drafts">
            Anything you start typing and do not send is kept here, even offline or after a reload.
          </EmptyState>
        ) : (
          <ul className="mx-auto flex max-w-3xl flex-col gap-2 px-3 py-4 md:px-4" aria-label="Drafts">
            {drafts.map((draft) => {
              const channel = channels.get(draft.channelId);
              const label = channel ? channelLabel(channel, workspace) : null;
              return (
                <li key={draft.channelId}>
                  <Link
                    to={`/client/${institution.id}/channel/${draft.channelId}`}
                    className="flex items-start gap-3 rounded-lg border border-line bg-surface p-3 transition-colors hover:border-line-strong hover:bg-surface-2"
                  >
                    {label?.isDirect ? (
                      <Avatar id={label.otherMemberId ?? draft.channelId} name={label.title} size="sm" />
                    ) : (
                      <span className="flex size-6 items-center justify-center rounded-md bg-selected text-muted">
                        <Hash className="size-3.5" aria-hidden />
                      </span>
                    )}
                    <span className="min-w-0 flex-1">
                      <span className="flex items-baseline justify-between gap-3">
                        <span className="truncate text-sm font-medium">
                          {label ? (label.isDirect ? label.title : `#${label.title}`) : 'Channel'}
                        </span>
                        <span className="shrink-0 text-xs text-muted">
                          {formatDistanceToNow(draft.lastUpdateAt, { addSuffix: true })}
                        </span>
                      </span>
                      <span className="mt-0.5 line-clamp-2 block text-[13px] text-muted">
                        {htmlPreview(draft.content) || 'Attachments only'}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
