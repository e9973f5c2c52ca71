// A message out of its list (search results, activity, pinned and starred panels): channel, author,
// date and a line of it; a click opens the channel at that message.

import DOMPurify from 'dompurify';
import { Hash, Lock } from 'lucide-react';
import { type ReactNode, useLayoutEffect, useMemo, useRef } from 'react';
import { Link } from 'react-router';
import type { MessageDoc } from '../../../schemas/collections.ts';
import type { Message } from '../../../schemas/protocol/index.ts';
import { channelLabel, useWorkspace } from '../../app/workspace-context.ts';
import { useChannel } from '../../data/channels.ts';
import { useAuthorName } from '../../data/deleted-members.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { AgentBadge, isAgent } from './agent-badge.tsx';
import { dayLabel, fullTimeLabel, timeLabel } from './day.ts';
import { htmlPreview } from './message-html.ts';

/** Search excerpts are escaped text with <mark>; DOMPurify keeps it that way whatever arrives. */
function HighlightedText({ html }: { html: string }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { ALLOWED_TAGS: ['mark'], ALLOWED_ATTR: [] }), [html]);
  const ref = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.innerHTML = clean;
  }, [clean]);
  return <p ref={ref} className="line-clamp-3 text-[13px] leading-snug break-words text-fg/90" />;
}

export function messageSummary(message: Pick<Message, 'content' | 'poll' | 'attachments'>): string {
  if (message.poll) return `Poll: ${message.poll.question}`;
  const text = htmlPreview(message.content);
  if (text) return text;
  const first = message.attachments[0];
  return first ? `📎 ${first.fileName}` : '';
}

export function MessageCard({
  message,
  highlight,
  eyebrow,
  unread,
  onOpen,
  showChannel = true,
  actorMemberId,
}: {
  message: MessageDoc | Message;
  /** Who acted on the message (a reaction's author), shown as the picture instead of the message's author. */
  actorMemberId?: string;
  /** Escaped HTML with <mark> around matched words (from search), shown instead of the plain line. */
  highlight?: string;
  eyebrow?: ReactNode;
  unread?: boolean;
  /**
   * The card was followed. `inPlace` is false when the link opens elsewhere (Ctrl, ⌘ or Shift held: a new
   * tab or window), so a panel around it should stay open.
   */
  onOpen?: (inPlace: boolean) => void;
  showChannel?: boolean;
}) {
  const workspace = useWorkspace();
  const channel = useChannel(message.channelId);
  const author = workspace.membersById.get(message.memberId);
  const name = useAuthorName(workspace.institution.id, message.memberId, author);
  const pictured = actorMemberId ?? message.memberId;
  const actor = actorMemberId ? workspace.membersById.get(actorMemberId) : author;
  const actorName = useAuthorName(workspace.institution.id, pictured, actor);
  const label = channel ? channelLabel(channel, workspace) : null;
  const created = new Date(message.createdAt);
  return (
    <Link
      to={`/client/${workspace.institution.id}/channel/${message.channelId}#${message.id}`}
      onClick={
        onOpen
          ? (event) => onOpen(!(event.ctrlKey || event.metaKey || event.shiftKey || event.altKey))
          : undefined
      }
      className={cn(
        'relative flex gap-3 rounded-lg border border-line bg-surface px-3 py-2.5 hover:border-line-strong hover:bg-surface-2',
        unread && 'border-accent/40 bg-accent-soft/20',
      )}
      data-testid="message-card"
    >
      {unread ? (
        <span className="absolute top-3.5 left-1 size-1.5 rounded-full bg-accent">
          <span className="sr-only">Unread</span>
        </span>
      ) : null}
      <Avatar id={pictured} name={actorName} src={actor?.profileImage} size="md" />
      <div className="min-w-0 flex-1">
        {eyebrow ? <div className="mb-0.5 text-[12px] text-muted">{eyebrow}</div> : null}
        <div className="flex items-baseline gap-2">
          <span className="truncate text-[13px] font-semibold">{name}</span>
          {isAgent(author) || message.agentAnswer ? <AgentBadge className="self-center" /> : null}
          {showChannel && label ? (
            <span className="flex min-w-0 items-center gap-0.5 truncate text-[12px] text-muted">
              {label.isDirect ? null : channel?.type === 'private' ? (
                <Lock className="size-3" aria-hidden />
              ) : (
                <Hash className="size-3" aria-hidden />
              )}
              {label.title}
            </span>
          ) : null}
          <time
            dateTime={message.createdAt}
            title={fullTimeLabel(created)}
            className="ml-auto shrink-0 text-[11px] text-faint"
          >
            {dayLabel(created)} · {timeLabel(created)}
          </time>
        </div>
        {highlight ? (
          <HighlightedText html={highlight} />
        ) : (
          <p className="line-clamp-3 text-[13px] leading-snug break-words text-fg/90">
            {messageSummary(message)}
          </p>
        )}
      </div>
    </Link>
  );
}
