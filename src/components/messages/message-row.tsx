// One message in the list: author, time (full date on hover), the reply quote, sanitised body with
// mention chips, the first link's preview, poll, attachments, reactions, pin/star/forwarded marks and its delivery state (spec §4):
// pending shows "Sending…" ("Waiting for connection" while offline), failed shows "Not sent" with why and
// what can be done (send-failure.ts): Retry where it can succeed, else Edit and Delete. Actions sit in
// message-actions.tsx; edits happen in place. An agent's message is marked AI and its body is the
// answer's own view (agent-answer.tsx: thinking, streaming, tool calls, sources).
import { AlertCircle, Clock, Forward, Pencil, Pin, RotateCcw, Star, Trash2, WifiOff } from 'lucide-react';
import { lazy, memo, Suspense, useRef, useState } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { notifyError } from '../../app/notify.ts';
import type { WorkspaceMember } from '../../app/workspace-context.ts';
import { useAuthorName } from '../../data/deleted-members.ts';
import { deleteMessage, discardMessage, retryMessage, useSendFailure } from '../../data/messages.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { AgentBadge, isAgent } from './agent-badge.tsx';
import { useConversation } from './conversation-context.ts';
import { dayLabel, fullTimeLabel, timeLabel } from './day.ts';
import { type MessageAbilities, MessageMenuButton, MessageToolbar } from './message-actions.tsx';
import { htmlPreview } from './message-html.ts';
import { onMessageBlur, onMessageKeyDown } from './message-keys.ts';
import { AgentAnswerBody, AttachmentList, LinkPreviewCard, PollCard } from './message-parts.tsx';
import { mayHoldLink } from './preview-link.ts';
import { Reactions } from './reactions.tsx';
import { ReplyQuote } from './reply-quote.tsx';
import { SanitizedHtml } from './sanitized-html.tsx';
import { failureView } from './send-failure.ts';

// Editing and forwarding load their code (the editor, the channel picker) when first used.
const InlineEditor = lazy(() => import('./inline-editor.tsx').then((m) => ({ default: m.InlineEditor })));
const ForwardDialog = lazy(() => import('./forward-dialog.tsx').then((m) => ({ default: m.ForwardDialog })));

const BODY = 'message-body min-w-0 text-[14px] leading-[1.5] break-words';

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

/** "Not sent": why, and only the ways on that can work (send-failure.ts). */
function NotSent({ message, mine, onEdit }: { message: MessageDoc; mine: boolean; onEdit: () => void }) {
  const view = failureView(useSendFailure(message.genId), {
    content: message.content,
    isPoll: message.poll !== null,
    mine,
  });
  const action = 'inline-flex items-center gap-1 rounded px-1 font-medium hover:bg-hover';
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs" data-testid="not-sent">
      <p className="inline-flex min-w-0 items-start gap-1 text-danger">
        <AlertCircle className="mt-px size-3.5 shrink-0" aria-hidden />
        <span>
          <span className="font-medium">Not sent.</span> {view.reason}
        </span>
      </p>
      {view.retry ? (
        <button
          type="button"
          onClick={() => void retryMessage(message.genId).catch(notifyError)}
          className={cn(action, 'text-fg')}
        >
          <RotateCcw className="size-3" aria-hidden />
          Retry
        </button>
      ) : null}
      {view.edit ? (
        <button type="button" onClick={onEdit} className={cn(action, 'text-fg')}>
          <Pencil className="size-3" aria-hidden />
          Edit
        </button>
      ) : null}
      <button
        type="button"
        onClick={() => void discardMessage(message.genId).catch(notifyError)}
        className={cn(action, 'text-muted hover:text-danger')}
      >
        <Trash2 className="size-3" aria-hidden />
        Delete
      </button>
    </div>
  );
}

export interface MessageRowProps {
  message: MessageDoc;
  author: WorkspaceMember | undefined;
  /** Continues the previous message's group: no avatar or name. */
  compact: boolean;
  showAvatar: boolean;
  /** The message this one replies to, when it is loaded. */
  replied: MessageDoc | undefined;
  meId: string;
  /** From the channel's permissions (spec §6). */
  canDeleteAny: boolean;
  canPin: boolean;
  isOwner: boolean;
  /** Only for a pending message: no connection, so it waits rather than sends. */
  offline?: boolean;
}

const LONG_PRESS_MS = 450;

export const MessageRow = memo(function MessageRow({
  message,
  author,
  compact: groupCompact,
  showAvatar,
  replied,
  meId,
  canDeleteAny,
  canPin,
  isOwner,
  offline = false,
}: MessageRowProps) {
  const conversation = useConversation();
  const [menuOpen, setMenuOpen] = useState(false);
  // The actions (toolbar, menus) are built once the message is pointed at, focused or its menu opened:
  // until then a row is its content, a third of the elements (decision 0060).
  const [armed, setArmed] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [forwarding, setForwarding] = useState(false);
  const press = useRef<number | null>(null);
  const pressOpened = useRef(false);
  const created = new Date(message.createdAt);
  const name = useAuthorName(message.institutionId, message.memberId, author);
  const pending = message.status === 'pending';
  const failed = message.status === 'failed';
  const mine = message.memberId === meId;
  const fromAgent = isAgent(author) || message.agentAnswer !== null;
  const editing = conversation?.editing === message.genId;
  // A reply, a pin or a forward opens its own header block, so it never hides under the previous one.
  const compact = groupCompact && !message.replyTo && !message.isPinned && !message.forwardedFrom;
  const abilities: MessageAbilities = {
    canEdit: mine && !message.poll,
    canDelete: mine || (canDeleteAny && !pending && !failed),
    canPin: canPin && !!message.id,
    isShared: !!message.id,
  };
  const on = {
    reply: () => conversation?.setReplyTo(message),
    edit: () => conversation?.setEditing(message.genId),
    remove: () => setConfirmDelete(true),
    forward: () => setForwarding(true),
  };

  function openMenu(open: boolean) {
    if (open) setArmed(true);
    setMenuOpen(open);
  }
  function startPress(event: React.PointerEvent) {
    if (event.pointerType !== 'touch') return;
    pressOpened.current = false;
    press.current = window.setTimeout(() => {
      pressOpened.current = true;
      openMenu(true);
    }, LONG_PRESS_MS);
  }
  // A finger lifted soon after the menu opened is still a tap to the browser, whose click would move focus
  // to the message and close the menu it just opened: the press was the gesture, so its click is dropped.
  function endTouch(event: React.TouchEvent) {
    if (!pressOpened.current) return;
    pressOpened.current = false;
    event.preventDefault();
  }
  // A mouse arms when it moves over the row; a finger only once its tap is over (click): arming on its
  // pointerdown or the focus that follows would rebuild the "…" button between the tap's pointerdown and
  // its click, and the click would miss it. Not on entering: after every scroll (each live message at the
  // bottom) Chromium moves the hover to the row now under a resting pointer with over/enter events and no
  // move, and building that row's actions doubled a live message's work. Focus arms when it comes from the
  // keyboard (message-keys.ts marks data-keys).
  function moveOver(event: React.PointerEvent) {
    endPress();
    if (!armed && event.pointerType !== 'touch') setArmed(true);
  }
  function armByFocus(event: React.FocusEvent<HTMLElement>) {
    const target = event.target as HTMLElement;
    if (target.matches(':focus-visible') || event.currentTarget.dataset.keys !== undefined) setArmed(true);
  }
  function endPress() {
    if (press.current !== null) window.clearTimeout(press.current);
    press.current = null;
  }

  return (
    <article
      className={cn(
        'group relative flex gap-3 px-4 outline-none hover:bg-hover/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset',
        compact ? 'py-0.5' : 'pt-2 pb-0.5',
        message.isPinned && 'bg-accent-soft/25 hover:bg-accent-soft/40',
        failed && 'bg-danger-soft/40 hover:bg-danger-soft/60',
        editing && 'bg-accent-soft/20',
      )}
      aria-label={`${name}, ${timeLabel(created)}`}
      // One tab stop per message, arrows from here (message-keys.ts): the WAI-ARIA feed pattern's
      // focusable articles.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a feed's articles are focusable by design
      tabIndex={0}
      onKeyDown={onMessageKeyDown}
      onBlur={onMessageBlur}
      data-status={message.status}
      data-gen-id={message.genId}
      data-message-id={message.id ?? undefined}
      onFocus={armed ? undefined : armByFocus}
      onClick={armed ? undefined : () => setArmed(true)}
      onPointerDown={startPress}
      onPointerUp={endPress}
      onPointerMove={moveOver}
      onPointerCancel={endPress}
      onTouchEnd={endTouch}
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
              className={cn(
                'mt-0.5',
                (message.replyTo || message.isPinned || message.forwardedFrom) && 'mt-6',
                fromAgent && 'rounded-lg ring-2 ring-violet-500/45 ring-offset-2 ring-offset-surface',
              )}
            />
          )}
        </div>
      ) : null}
      {/* On phones the "…" button sits at the top right: the text keeps clear of it. */}
      <div className="min-w-0 flex-1 pr-6 md:pr-0">
        {message.isPinned ? (
          <p className="mb-0.5 flex items-center gap-1 text-[11px] font-medium text-accent-fg">
            <Pin className="size-3" aria-hidden />
            Pinned
          </p>
        ) : null}
        {message.forwardedFrom ? (
          <p className="mb-0.5 flex items-center gap-1 text-[11px] text-muted">
            <Forward className="size-3" aria-hidden />
            Forwarded
          </p>
        ) : null}
        {message.replyTo ? <ReplyQuote replyTo={message.replyTo} original={replied} /> : null}
        {compact ? null : (
          <header className="flex items-baseline gap-2">
            <span className="truncate text-[14px] font-semibold">{name}</span>
            {fromAgent ? <AgentBadge className="self-center" /> : null}
            <time
              dateTime={message.createdAt}
              title={fullTimeLabel(created)}
              className="shrink-0 text-xs text-muted"
            >
              {timeLabel(created)}
            </time>
            {/* An agent's answer is written by edits as it streams: "(edited)" would say nothing. */}
            {message.editedAt && !fromAgent ? <span className="text-xs text-faint">(edited)</span> : null}
            {message.isStarred ? (
              <Star className="size-3 shrink-0 fill-current text-accent" aria-label="Starred" />
            ) : null}
          </header>
        )}
        {editing ? (
          <Suspense fallback={<SanitizedHtml html={message.content} meId={meId} />}>
            <InlineEditor message={message} onDone={() => conversation?.setEditing(null)} />
          </Suspense>
        ) : fromAgent ? (
          <AgentAnswerBody
            message={message}
            meId={meId}
            fallback={
              <SanitizedHtml
                html={message.content}
                meId={meId}
                className="message-body min-w-0 break-words"
              />
            }
          />
        ) : message.content ? (
          <div className="flex items-baseline gap-1.5">
            <SanitizedHtml html={message.content} meId={meId} className={cn(BODY, pending && 'text-fg/60')} />
            {compact && message.editedAt ? (
              <span className="shrink-0 text-xs text-faint">(edited)</span>
            ) : null}
            {compact && message.isStarred ? (
              <Star className="size-3 shrink-0 fill-current text-accent" aria-label="Starred" />
            ) : null}
          </div>
        ) : null}
        {/* Under a sent message only: a draft's link is not worth a request while it is being sent. */}
        {message.content &&
        !fromAgent &&
        !editing &&
        message.status === 'confirmed' &&
        !message.deletedAt &&
        mayHoldLink(message.content) ? (
          <LinkPreviewCard institutionId={message.institutionId} content={message.content} />
        ) : null}
        {message.poll ? (
          <PollCard genId={message.genId} poll={message.poll} canClose={mine || isOwner} />
        ) : null}
        {message.attachments.length > 0 ? <AttachmentList attachments={message.attachments} /> : null}
        <Reactions genId={message.genId} reactions={message.reactions} />
        {pending ? (
          <p className="mt-0.5 inline-flex items-center gap-1 text-xs text-muted" data-testid="delivery">
            {offline ? <WifiOff className="size-3" aria-hidden /> : <Clock className="size-3" aria-hidden />}
            {offline ? 'Waiting for connection' : 'Sending…'}
          </p>
        ) : null}
        {failed ? <NotSent message={message} mine={mine} onEdit={on.edit} /> : null}
      </div>
      {editing || failed ? null : (
        <>
          {armed ? <MessageToolbar message={message} abilities={abilities} on={on} /> : null}
          <MessageMenuButton
            message={message}
            abilities={abilities}
            on={on}
            open={menuOpen}
            onOpenChange={openMenu}
            armed={armed}
            continued={compact}
          />
        </>
      )}
      {confirmDelete ? (
        <Dialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete message?"
          description={
            message.id ? 'It will be removed for everyone in this channel.' : 'It has not been sent yet.'
          }
        >
          <blockquote className="mb-4 line-clamp-3 rounded-md border border-line bg-surface-2 px-3 py-2 text-[13px] text-muted">
            <MessageGist message={message} />
          </blockquote>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                setConfirmDelete(false);
                void deleteMessage(message.genId).catch(notifyError);
              }}
            >
              Delete
            </Button>
          </div>
        </Dialog>
      ) : null}
      {forwarding ? (
        <Suspense fallback={null}>
          <ForwardDialog message={message} onClose={() => setForwarding(false)} />
        </Suspense>
      ) : null}
    </article>
  );
});

/** What the delete dialog quotes: reading HTML into text is a parse, done only while the dialog is open. */
function MessageGist({ message }: { message: MessageDoc }) {
  return (
    <>{message.poll ? `Poll: ${message.poll.question}` : htmlPreview(message.content) || 'Attachment'}</>
  );
}
