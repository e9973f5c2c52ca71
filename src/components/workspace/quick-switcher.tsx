// The quick switcher (Ctrl/Cmd+K, issue 15 item 5): type a few letters of a channel or a person and press
// Enter. Empty, it lists the conversations opened lately. A combobox over one list (aria-activedescendant),
// so the arrows move through results while typing continues.
import { Hash, Lock, MessageSquare } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ChannelDoc } from '../../../schemas/collections.ts';
import { recentChannelsOf } from '../../app/last-channel.ts';
import { notifyError } from '../../app/notify.ts';
import { channelLabel, useWorkspace } from '../../app/workspace-context.ts';
import { startDirectMessage, useBrowsableChannels, useChannels } from '../../data/channels.ts';
import { Avatar } from '../ui/avatar.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';

interface Choice {
  key: string;
  title: string;
  hint: string;
  icon: 'public' | 'private' | 'person' | 'direct';
  /** The avatar of a person. */
  memberId?: string;
  open: () => Promise<void> | void;
}

const SHOWN_MAX = 12;

/** Best first: names that start with the query, then words that do, then names that contain it. */
function rank(title: string, query: string): number {
  const t = title.toLowerCase();
  if (t.startsWith(query)) return 0;
  if (t.split(/[\s_-]+/).some((word) => word.startsWith(query))) return 1;
  return t.includes(query) ? 2 : -1;
}

export function QuickSwitcher({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Jump to a conversation" className="max-w-lg">
      {open ? <SwitcherBody onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function SwitcherBody({ onDone }: { onDone: () => void }) {
  const workspace = useWorkspace();
  const { institution, me, membersById } = workspace;
  const navigate = useNavigate();
  const joined = useChannels(institution.id);
  const browsable = useBrowsableChannels(institution.id);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const id = useId();
  const base = `/client/${institution.id}`;

  const choices = useMemo<Choice[]>(() => {
    const go = (channel: ChannelDoc) => () => void navigate(`${base}/channel/${channel.id}`);
    const joinedList = joined?.channels ?? [];
    const joinedIds = new Set(joinedList.map((c) => c.id));
    const dmWith = new Map<string, ChannelDoc>();
    const conversations: Choice[] = joinedList.map((channel) => {
      const label = channelLabel(channel, workspace);
      if (label.isDirect && label.otherMemberId) dmWith.set(label.otherMemberId, channel);
      return label.isDirect
        ? {
            key: channel.id,
            title: label.title,
            hint: label.isSelf ? 'Your notes' : 'Direct message',
            icon: 'direct',
            ...(label.otherMemberId ? { memberId: label.otherMemberId } : {}),
            open: go(channel),
          }
        : {
            key: channel.id,
            title: channel.name,
            hint: channel.type === 'private' ? 'Private channel' : 'Channel',
            icon: channel.type === 'private' ? 'private' : 'public',
            open: go(channel),
          };
    });
    const toJoin: Choice[] = (browsable ?? [])
      .filter((c) => !joinedIds.has(c.id) && c.type === 'public')
      .map((channel) => ({
        key: channel.id,
        title: channel.name,
        hint: 'Channel you have not joined',
        icon: 'public',
        open: go(channel),
      }));
    const people: Choice[] = [...membersById.values()]
      .filter((m) => m.id !== me.id && !dmWith.has(m.id))
      .map((m) => ({
        key: `member:${m.id}`,
        title: m.name || m.email,
        hint: m.name ? m.email : 'Person',
        icon: 'person',
        memberId: m.id,
        open: async () => {
          const channel = await startDirectMessage(institution.id, m.id);
          void navigate(`${base}/channel/${channel.id}`);
        },
      }));
    return [...conversations, ...toJoin, ...people];
  }, [joined, browsable, membersById, me.id, institution.id, base, navigate, workspace]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) {
      // Recent conversations first, then the rest of what one is in.
      const recent = recentChannelsOf(institution.id);
      const order = (c: Choice) => {
        const i = recent.indexOf(c.key);
        return i === -1 ? recent.length : i;
      };
      return choices
        .filter((c) => c.icon !== 'person' && c.hint !== 'Channel you have not joined')
        .sort((a, b) => order(a) - order(b) || a.title.localeCompare(b.title))
        .slice(0, SHOWN_MAX);
    }
    return choices
      .map((c) => ({ c, r: rank(c.title, q) }))
      .filter(({ r }) => r >= 0)
      .sort((a, b) => a.r - b.r || a.c.title.localeCompare(b.c.title))
      .slice(0, SHOWN_MAX)
      .map(({ c }) => c);
  }, [choices, query, institution.id]);

  const current = Math.min(active, Math.max(0, shown.length - 1));
  const choose = (choice: Choice | undefined) => {
    if (!choice) return;
    onDone();
    void Promise.resolve(choice.open()).catch(notifyError);
  };

  return (
    <div className="flex flex-col gap-2 pb-1">
      <input
        role="combobox"
        aria-expanded
        aria-controls={`${id}-list`}
        aria-activedescendant={shown[current] ? `${id}-${current}` : undefined}
        aria-label="Channel or person"
        aria-autocomplete="list"
        placeholder="Channel or person"
        // biome-ignore lint/a11y/noAutofocus: the dialog exists to take this input; focus belongs here.
        autoFocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setActive((current + step + shown.length) % Math.max(1, shown.length));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(shown[current]);
          }
        }}
        className="h-10 w-full rounded-md border border-line-strong bg-surface px-3 text-sm outline-none placeholder:text-faint focus-visible:ring-2 focus-visible:ring-ring"
      />
      <p className="sr-only" aria-live="polite">
        {query.trim() ? `${shown.length} ${shown.length === 1 ? 'result' : 'results'}` : ''}
      </p>
      {shown.length === 0 ? (
        <p className="px-1 py-6 text-center text-[13px] text-muted">
          No channel or person matches “{query}”.
        </p>
      ) : (
        <div
          id={`${id}-list`}
          role="listbox"
          aria-label={query.trim() ? 'Results' : 'Recent'}
          className="flex flex-col"
        >
          {!query.trim() ? (
            <p
              className="px-2 pt-1 pb-1 text-[11px] font-semibold tracking-wide text-muted uppercase"
              aria-hidden
            >
              Recent
            </p>
          ) : null}
          {shown.map((choice, i) => (
            <div
              key={choice.key}
              id={`${id}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === current}
              onMouseMove={() => setActive(i)}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(choice);
              }}
              className={cn(
                'flex h-9 cursor-pointer items-center gap-2.5 rounded-md px-2 text-sm',
                i === current && 'bg-selected',
              )}
            >
              <ChoiceIcon choice={choice} />
              <span className="min-w-0 flex-1 truncate">{choice.title}</span>
              <span className="shrink-0 truncate text-xs text-muted">{choice.hint}</span>
            </div>
          ))}
        </div>
      )}
      <p className="px-1 text-[11px] text-faint">
        <kbd className="font-sans font-medium">↑</kbd> <kbd className="font-sans font-medium">↓</kbd> to move
        · <kbd className="font-sans font-medium">Enter</kbd> to open ·{' '}
        <kbd className="font-sans font-medium">Esc</kbd> to close
      </p>
    </div>
  );
}

function ChoiceIcon({ choice }: { choice: Choice }) {
  const { membersById } = useWorkspace();
  if (choice.memberId && (choice.icon === 'person' || choice.icon === 'direct')) {
    const m = membersById.get(choice.memberId);
    return (
      <Avatar
        id={choice.memberId}
        name={m?.name || m?.email || choice.title}
        src={m?.profileImage ?? null}
        size="xs"
      />
    );
  }
  const Icon = choice.icon === 'private' ? Lock : choice.icon === 'direct' ? MessageSquare : Hash;
  return <Icon className="size-4 shrink-0 text-muted" aria-hidden />;
}
