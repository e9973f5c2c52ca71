// Reaction chips under a message (spec §4): emoji and count, who reacted on hover, a click toggles
// mine; my own reactions are outlined in the accent colour.
import { SmilePlus } from 'lucide-react';
import type { Reaction } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { toggleReaction } from '../../data/messages.ts';
import { cn } from '../ui/cn.ts';
import { Tooltip } from '../ui/tooltip.tsx';
import { emojiName } from './emoji-data.ts';
import { EmojiPicker } from './emoji-picker.tsx';

function whoReacted(memberIds: readonly string[], meId: string, names: (id: string) => string): string {
  const people = memberIds.map((id) => (id === meId ? 'You' : names(id)));
  if (people.length <= 3) return people.join(', ').replace(/, ([^,]*)$/, ' and $1');
  return `${people.slice(0, 3).join(', ')} and ${people.length - 3} more`;
}

export function Reactions({ genId, reactions }: { genId: string; reactions: readonly Reaction[] }) {
  const { me, membersById } = useWorkspace();
  const shown = reactions.filter((r) => r.count > 0);
  if (shown.length === 0) return null;
  const name = (id: string) => {
    const m = membersById.get(id);
    return m?.name || m?.email || 'Someone';
  };
  return (
    <ul className="mt-1 flex flex-wrap items-center gap-1" aria-label="Reactions">
      {shown.map((r) => {
        const mine = r.memberIds.includes(me.id);
        const label = `${emojiName(r.emoji)}: ${r.count} ${r.count === 1 ? 'reaction' : 'reactions'}${mine ? ', including yours' : ''}`;
        return (
          <li key={r.emoji}>
            <Tooltip
              content={
                <span>
                  {whoReacted(r.memberIds, me.id, name)} reacted with {r.emoji}
                </span>
              }
            >
              <button
                type="button"
                aria-label={label}
                aria-pressed={mine}
                data-emoji={r.emoji}
                onClick={() => void toggleReaction(genId, r.emoji).catch(notifyError)}
                className={cn(
                  'flex h-6 items-center gap-1 rounded-full border px-2 text-[12px] tabular-nums transition-colors',
                  mine
                    ? 'border-accent bg-accent-soft text-accent-fg'
                    : 'border-line bg-surface-2 text-muted hover:border-line-strong hover:text-fg',
                )}
              >
                <span className="text-[14px] leading-none">{r.emoji}</span>
                <span className="font-medium">{r.count}</span>
              </button>
            </Tooltip>
          </li>
        );
      })}
      <li>
        <EmojiPicker
          label="Add reaction"
          onPick={(emoji) => void toggleReaction(genId, emoji).catch(notifyError)}
          trigger={
            <button
              type="button"
              aria-label="Add reaction"
              className="flex h-6 items-center rounded-full border border-transparent px-1.5 text-faint hover:border-line hover:bg-surface-2 hover:text-fg"
            >
              <SmilePlus className="size-3.5" aria-hidden />
            </button>
          }
        />
      </li>
    </ul>
  );
}
