// The '@' suggestion list under the caret: people with avatar and online dot (and whether they are in
// the channel), roles, agents, groups, @everyone and @here — spec §5's rule via useMentionSuggestions.
import { AtSign, Bot, Shield, Users } from 'lucide-react';
import { useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { MentionSuggestion } from '../../../schemas/mention-suggestions.ts';
import { toMention } from '../../../schemas/mention-suggestions.ts';
import { useMentionSuggestions } from '../../data/mentions.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { AgentBadge } from './agent-badge.tsx';
import type { MentionItem } from './editor-extensions.ts';

export interface MentionMenuHandle {
  keyDown: (event: KeyboardEvent) => boolean;
}

const TYPE_HINT: Record<MentionSuggestion['type'], string> = {
  member: '',
  role: 'Role',
  agent: 'Agent',
  group: 'Group',
  everyone: 'Notify everyone in this channel',
  here: 'Notify everyone online here',
};

export function toMentionItem(s: MentionSuggestion): MentionItem {
  const ref = toMention(s);
  return { id: ref.id, label: s.name, mentionType: ref.type };
}

export function MentionMenu({
  institutionId,
  channelId,
  query,
  rect,
  onPick,
  ref,
}: {
  institutionId: string;
  channelId: string;
  query: string;
  rect: DOMRect | null;
  onPick: (item: MentionItem) => void;
  ref: React.Ref<MentionMenuHandle>;
}) {
  const suggestions = useMentionSuggestions(institutionId, channelId, query) ?? [];
  // The highlighted row starts at the top again whenever the query changes.
  const [selection, setSelection] = useState({ query, index: 0 });
  const active = selection.query === query ? selection.index : 0;
  const setActive = (next: number | ((i: number) => number)) =>
    setSelection({ query, index: typeof next === 'function' ? next(active) : next });
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  useImperativeHandle(ref, () => ({
    keyDown(event) {
      if (suggestions.length === 0) return false;
      if (event.key === 'ArrowDown') {
        setActive((i) => (i + 1) % suggestions.length);
        return true;
      }
      if (event.key === 'ArrowUp') {
        setActive((i) => (i - 1 + suggestions.length) % suggestions.length);
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        const pick = suggestions[active];
        if (pick) onPick(toMentionItem(pick));
        return true;
      }
      return false;
    },
  }));

  // Nothing to offer (or the member may not tag): no menu at all, '@' is just a character.
  if (suggestions.length === 0) return null;
  const bottom = rect ? window.innerHeight - rect.top + 6 : 80;
  const left = rect ? Math.min(rect.left, window.innerWidth - 296) : 16;
  return (
    <div
      ref={list}
      role="listbox"
      aria-label="Mention someone"
      style={{ bottom, left: Math.max(8, left) }}
      className="fixed z-50 max-h-72 w-72 overflow-y-auto rounded-lg border border-line bg-surface p-1 shadow-xl"
    >
      {suggestions.map((s, index) => (
        <div
          key={`${s.type}:${s.id}`}
          role="option"
          tabIndex={-1}
          aria-selected={index === active}
          data-index={index}
          onMouseEnter={() => setActive(index)}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(toMentionItem(s));
          }}
          className={cn(
            'flex h-9 cursor-default items-center gap-2 rounded-md px-2 text-[13px]',
            index === active && 'bg-hover',
          )}
        >
          <SuggestionIcon suggestion={s} />
          <span className={cn('min-w-0 truncate font-medium', !s.isInChannel && 'text-muted')}>
            {s.type === 'everyone' || s.type === 'here' ? `@${s.name}` : s.name}
          </span>
          {s.type === 'agent' ? <AgentBadge /> : null}
          <span className="ml-auto shrink-0 truncate text-[11px] text-faint">
            {s.type === 'member' && !s.isInChannel ? 'Not in channel' : TYPE_HINT[s.type]}
          </span>
        </div>
      ))}
    </div>
  );
}

function SuggestionIcon({ suggestion: s }: { suggestion: MentionSuggestion }) {
  if (s.type === 'member') {
    return <Avatar id={s.id} name={s.name} src={s.profileImage} size="xs" online={s.isOnline} />;
  }
  if (s.type === 'agent' && s.profileImage) {
    return <Avatar id={s.id} name={s.name} src={s.profileImage} size="xs" />;
  }
  const Icon = s.type === 'agent' ? Bot : s.type === 'role' ? Shield : s.type === 'group' ? Users : AtSign;
  return (
    <span
      className={cn(
        'flex size-5 shrink-0 items-center justify-center rounded',
        s.type === 'agent'
          ? 'bg-violet-500/15 text-violet-700 dark:text-violet-300'
          : 'bg-accent-soft text-accent-fg',
      )}
    >
      <Icon className="size-3" aria-hidden />
    </span>
  );
}
