// A poll in the message list (spec §4): question, options with live result bars, one or several
// choices; vote, change or remove the vote, and close it (its author or a channel owner).
import { Check, Lock, Vote } from 'lucide-react';
import { useState } from 'react';
import type { Poll } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { closePoll, removeVoteOnPoll, voteOnPoll } from '../../data/messages.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';

export function PollCard({ genId, poll, canClose }: { genId: string; poll: Poll; canClose: boolean }) {
  const { me } = useWorkspace();
  const myVote = poll.options.flatMap((o, i) => (o.memberIds.includes(me.id) ? [i] : []));
  const voted = myVote.length > 0;
  const closed = poll.closedAt !== null;
  const [choice, setChoice] = useState<number[] | null>(null);
  const picked = choice ?? myVote;
  const total = poll.options.reduce((n, o) => n + o.votes, 0);
  const voters = new Set(poll.options.flatMap((o) => o.memberIds)).size;
  const showResults = voted || closed;
  // Options never move within a poll, so their position is their identity.
  const rows = poll.options.map((option, index) => ({ option, index, key: `option-${index}` }));

  function pick(index: number) {
    if (closed) return;
    if (!poll.multiple) {
      setChoice(null);
      void voteOnPoll(genId, [index]).catch(notifyError);
      return;
    }
    const next = picked.includes(index) ? picked.filter((i) => i !== index) : [...picked, index].sort();
    setChoice(next);
  }

  return (
    <section
      aria-label={`Poll: ${poll.question}`}
      className="mt-1 max-w-md rounded-lg border border-line bg-surface-2 p-3"
      data-testid="poll"
    >
      <header className="mb-2 flex items-start gap-2">
        <Vote className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden />
        <div className="min-w-0">
          {/* Not a heading: the section is named by it, and messages have no heading level of their own. */}
          <p className="text-[14px] leading-snug font-semibold">{poll.question}</p>
          <p className="text-[11px] text-muted">
            {closed ? 'Closed · ' : ''}
            {poll.multiple ? 'Choose one or more' : 'Choose one'} · {voters} {voters === 1 ? 'vote' : 'votes'}
          </p>
        </div>
      </header>
      <ul className="space-y-1.5">
        {rows.map(({ option, index, key }) => {
          const share = total > 0 ? Math.round((option.votes / total) * 100) : 0;
          const chosen = picked.includes(index);
          return (
            <li key={key}>
              <button
                type="button"
                aria-pressed={chosen}
                disabled={closed}
                onClick={() => pick(index)}
                className={cn(
                  'relative flex h-8 w-full items-center gap-2 overflow-hidden rounded-md border px-2 text-left text-[13px] transition-colors',
                  chosen ? 'border-accent' : 'border-line hover:border-line-strong',
                  closed && 'cursor-default',
                )}
              >
                {showResults ? (
                  <span
                    aria-hidden
                    className={cn('absolute inset-y-0 left-0', chosen ? 'bg-accent-soft' : 'bg-hover')}
                    style={{ width: `${share}%` }}
                  />
                ) : null}
                <span
                  className={cn(
                    'relative flex size-4 shrink-0 items-center justify-center border',
                    poll.multiple ? 'rounded' : 'rounded-full',
                    chosen ? 'border-accent bg-accent text-white' : 'border-line-strong bg-surface',
                  )}
                >
                  {chosen ? <Check className="size-3" aria-hidden /> : null}
                </span>
                <span className="relative min-w-0 flex-1 truncate">{option.text}</span>
                {showResults ? (
                  <span className="relative shrink-0 text-[12px] text-muted tabular-nums">
                    {option.votes} · {share}%
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
      <footer className="mt-2 flex flex-wrap items-center gap-2">
        {poll.multiple && !closed && choice !== null ? (
          <Button
            size="xs"
            disabled={choice.length === 0}
            onClick={() => {
              void voteOnPoll(genId, choice).catch(notifyError);
              setChoice(null);
            }}
          >
            {voted ? 'Change vote' : 'Vote'}
          </Button>
        ) : null}
        {voted && !closed ? (
          <Button
            size="xs"
            variant="ghost"
            onClick={() => {
              setChoice(null);
              void removeVoteOnPoll(genId).catch(notifyError);
            }}
          >
            Remove vote
          </Button>
        ) : null}
        {canClose && !closed ? (
          <Button
            size="xs"
            variant="ghost"
            className="ml-auto text-muted"
            onClick={() => void closePoll(genId).catch(notifyError)}
          >
            <Lock aria-hidden />
            Close poll
          </Button>
        ) : null}
      </footer>
    </section>
  );
}
