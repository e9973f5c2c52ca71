// The quoted original above a reply (spec §4 replyTo): author and a line of it; a click jumps to it.
import { CornerUpLeft } from 'lucide-react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useQuotedMessage } from '../../data/quoted-messages.ts';
import { useConversation } from './conversation-context.ts';
import { htmlPreview } from './message-html.ts';

export function ReplyQuote({ replyTo, original }: { replyTo: string; original: MessageDoc | undefined }) {
  const { membersById } = useWorkspace();
  const conversation = useConversation();
  // Older than the messages loaded here: asked of the server once (decision 0085).
  const quoted = useQuotedMessage(
    conversation?.institutionId ?? '',
    conversation?.channelId ?? '',
    conversation ? replyTo : null,
    original !== undefined,
  );
  const shown = original ?? (quoted?.kind === 'found' ? quoted.message : undefined);
  const author = shown ? membersById.get(shown.memberId) : undefined;
  const text = !shown
    ? quoted === undefined
      ? 'Loading the original message…'
      : quoted.kind === 'missing'
        ? 'Original message not found'
        : 'Original message not loaded'
    : shown.deletedAt
      ? 'This message was deleted'
      : shown.poll
        ? `Poll: ${shown.poll.question}`
        : htmlPreview(shown.content) || 'Attachment';
  // An original older than the rows shown is reached by loading the history down to it (decision 0087).
  const canJump = !!shown && !shown.deletedAt && !!conversation;
  return (
    <button
      type="button"
      disabled={!canJump}
      onClick={() => conversation?.jumpTo(replyTo)}
      aria-label={`Reply to ${author?.name || author?.email || 'a message'}: ${text}`}
      className="mb-0.5 flex max-w-full items-center gap-1.5 rounded-md border-l-2 border-accent bg-surface-2 py-0.5 pr-2 pl-2 text-left text-[12px] hover:bg-hover disabled:cursor-default"
      data-testid="reply-quote"
    >
      <CornerUpLeft className="size-3 shrink-0 text-faint" aria-hidden />
      {/* The space (no width in the flex row) keeps the words apart in the visible text, which the name
          must contain (WCAG 2.5.3, label in name). */}
      {author ? <span className="shrink-0 font-semibold">{author.name || author.email}</span> : null}{' '}
      <span className="min-w-0 truncate text-muted">{text}</span>
    </button>
  );
}
