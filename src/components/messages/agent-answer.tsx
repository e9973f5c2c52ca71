// The body of an agent's answer in the message list: "Thinking…" until text arrives, a caret while it
// streams, a hint while a tool waits for approval, failures as an error note, then its tool-call cards
// and the sources it cites (footnotes in the text open the passage).
import { AlertTriangle, Hand } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import type { AgentAnswer, AgentCitation } from '../../../schemas/protocol/index.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { cn } from '../ui/cn.ts';
import { PassageDialog, SourcesList } from './citations.tsx';
import { SanitizedHtml } from './sanitized-html.tsx';
import { ToolCallCard } from './tool-call-card.tsx';

/** What the server writes into an answer before any text (server/agents/answer.ts THINKING_HTML). */
const THINKING_HTML = '<p>Thinking…</p>';

export function ThinkingIndicator() {
  return (
    <div
      role="status"
      className="inline-flex items-center gap-2 py-0.5 text-[13.5px] text-muted"
      data-testid="agent-thinking"
    >
      <span className="flex h-3 items-end gap-[3px]" aria-hidden>
        {[0, 160, 320].map((delay) => (
          <span
            key={delay}
            className="flex h-3 items-end animate-bounce"
            style={{ animationDelay: `${delay}ms` }}
          >
            <span className="size-[5px] rounded-full bg-violet-500/80" />
          </span>
        ))}
      </span>
      Thinking…
    </div>
  );
}

/** The caret after the last block of text while it streams in (sanitised markup, so done with CSS). */
const STREAMING_CARET =
  "[&>*:last-child]:after:ml-0.5 [&>*:last-child]:after:inline-block [&>*:last-child]:after:h-[1.05em] [&>*:last-child]:after:w-[2px] [&>*:last-child]:after:animate-pulse [&>*:last-child]:after:rounded-full [&>*:last-child]:after:bg-violet-500 [&>*:last-child]:after:align-text-bottom [&>*:last-child]:after:content-['']";

/** The answer's text already quotes each passage (the answer without a model): listing them again repeats them. */
function quotesEveryPassage(html: string, citations: readonly AgentCitation[]): boolean {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return citations.every((c) => text.includes(c.passage.slice(0, 60)));
}

export function AgentAnswerBody({ message, meId }: { message: MessageDoc; meId: string }) {
  const { membersById } = useWorkspace();
  const [open, setOpen] = useState<number | null>(null);
  const answer: AgentAnswer | null = message.agentAnswer;
  const status = answer?.status ?? (message.content === THINKING_HTML ? 'thinking' : 'done');
  const citations = answer?.citations ?? [];
  const asker = answer ? membersById.get(answer.askerMemberId) : undefined;
  const askerName = answer?.askerMemberId === meId ? 'you' : asker?.name || asker?.email || 'the asker';
  // No text yet while a tool runs still reads as thinking; while a tool waits, the card says why instead.
  const thinking =
    status === 'thinking' ||
    (message.content === THINKING_HTML && status !== 'failed' && status !== 'awaiting_approval');
  const waiting = answer?.toolCalls.some((c) => c.status === 'awaiting_approval') ?? false;
  const place = { institutionId: message.institutionId, channelId: message.channelId, messageId: message.id };
  const excerpts = useMemo(
    () => citations.length > 0 && !quotesEveryPassage(message.content, citations),
    [message.content, citations],
  );

  return (
    <div data-testid="agent-answer" data-agent-status={status}>
      {thinking ? (
        <ThinkingIndicator />
      ) : status === 'failed' ? (
        <div
          role="alert"
          className="mt-0.5 flex max-w-xl items-start gap-2 rounded-md border border-danger/25 bg-danger-soft/50 px-2.5 py-1.5 text-[13.5px]"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
          <SanitizedHtml html={message.content} className="message-body min-w-0 break-words" />
        </div>
      ) : message.content && message.content !== THINKING_HTML ? (
        <SanitizedHtml
          html={message.content}
          meId={meId}
          citations={citations}
          onCitation={setOpen}
          className={cn(
            'message-body min-w-0 text-[14px] leading-[1.5] break-words',
            status === 'streaming' && STREAMING_CARET,
          )}
        />
      ) : null}
      {status === 'awaiting_approval' || (waiting && status !== 'failed') ? (
        <p className="mt-1 flex items-center gap-1.5 text-[12px] font-medium text-accent-fg">
          <Hand className="size-3.5" aria-hidden />
          {answer?.askerMemberId === meId
            ? 'Paused: a tool needs your approval'
            : `Paused: waiting for ${askerName} to approve a tool`}
        </p>
      ) : null}
      {answer?.toolCalls.map((call) => (
        <ToolCallCard
          key={call.id}
          call={call}
          place={place}
          canDecide={answer.askerMemberId === meId}
          askerName={askerName}
        />
      ))}
      {citations.length > 0 ? (
        <SourcesList citations={citations} onOpen={setOpen} excerpts={excerpts} />
      ) : null}
      <PassageDialog
        citation={citations.find((c) => c.index === open) ?? null}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
