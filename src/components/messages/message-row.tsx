// One message in the list: author, time, sanitised body and its delivery state (spec §4):
// pending shows "Sending…", failed shows "Not sent" with Retry and Delete.
import { AlertCircle, Clock, RotateCcw, Trash2 } from 'lucide-react';
import { memo } from 'react';
import type { MemberDoc, MessageDoc } from '../../../schemas/collections.ts';
import { notifyError } from '../../app/notify.ts';
import { discardMessage, retryMessage } from '../../data/actions.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { dayLabel, fullTimeLabel, timeLabel } from './day.ts';
import { SanitizedHtml } from './sanitized-html.tsx';

export function DaySeparator({ date }: { date: Date }) {
  return (
    <div className="relative flex items-center px-4 pt-4 pb-1" data-day-separator>
      <div className="h-px flex-1 bg-line" />
      <span className="mx-3 rounded-full border border-line bg-surface px-2.5 py-0.5 text-xs font-medium text-muted">
        {dayLabel(date)}
      </span>
      <div className="h-px flex-1 bg-line" />
    </div>
  );
}

export interface MessageRowProps {
  message: MessageDoc;
  author: MemberDoc | undefined;
  /** Continues the previous message's group: no avatar or name. */
  compact: boolean;
  showAvatar: boolean;
}

export const MessageRow = memo(function MessageRow({
  message,
  author,
  compact,
  showAvatar,
}: MessageRowProps) {
  const created = new Date(message.createdAt);
  const name = author?.name || author?.email || 'Unknown member';
  const pending = message.status === 'pending';
  const failed = message.status === 'failed';

  return (
    <article
      className={cn(
        'group relative flex gap-3 px-4 hover:bg-hover/60',
        compact ? 'py-0.5' : 'pt-2 pb-0.5',
        failed && 'bg-danger-soft/40 hover:bg-danger-soft/60',
      )}
      aria-label={`${name}, ${timeLabel(created)}`}
      data-status={message.status}
      data-gen-id={message.genId}
    >
      {showAvatar ? (
        <div className="w-9 shrink-0">
          {compact ? (
            <time
              dateTime={message.createdAt}
              title={fullTimeLabel(created)}
              className="block pt-0.5 text-right text-[10px] leading-5 text-faint opacity-0 group-hover:opacity-100"
            >
              {timeLabel(created).replace(/ [AP]M$/, '')}
            </time>
          ) : (
            <Avatar
              id={message.memberId}
              name={name}
              src={author?.profileImage}
              size="md"
              className="mt-0.5"
            />
          )}
        </div>
      ) : null}
      <div className="min-w-0 flex-1">
        {compact ? null : (
          <header className="flex items-baseline gap-2">
            <span className="truncate text-[14px] font-semibold">{name}</span>
            <time
              dateTime={message.createdAt}
              title={fullTimeLabel(created)}
              className="shrink-0 text-xs text-muted"
            >
              {timeLabel(created)}
            </time>
            {message.editedAt ? <span className="text-xs text-faint">(edited)</span> : null}
          </header>
        )}
        <SanitizedHtml
          html={message.content}
          className={cn('message-body text-[14px] leading-[1.5] break-words', pending && 'text-fg/60')}
        />
        {pending ? (
          <p className="mt-0.5 inline-flex items-center gap-1 text-xs text-muted">
            <Clock className="size-3" aria-hidden />
            Sending…
          </p>
        ) : null}
        {failed ? (
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
            <span className="inline-flex items-center gap-1 font-medium text-danger">
              <AlertCircle className="size-3.5" aria-hidden />
              Not sent
            </span>
            <button
              type="button"
              onClick={() => void retryMessage(message.genId).catch(notifyError)}
              className="inline-flex items-center gap-1 rounded px-1 font-medium text-fg hover:bg-hover"
            >
              <RotateCcw className="size-3" aria-hidden />
              Retry
            </button>
            <button
              type="button"
              onClick={() => void discardMessage(message.genId).catch(notifyError)}
              className="inline-flex items-center gap-1 rounded px-1 font-medium text-muted hover:bg-hover hover:text-danger"
            >
              <Trash2 className="size-3" aria-hidden />
              Delete
            </button>
          </div>
        ) : null}
      </div>
    </article>
  );
});
