// Forwarding a message to one or more channels (spec §4 forwardMessage): pick from the channels and
// conversations I am in; copies appear at once in each and are sent through the outbox.
import { Hash, Lock, Search } from 'lucide-react';
import { useState } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { FORWARD_TARGETS_MAX } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { channelLabel, useWorkspace } from '../../app/workspace-context.ts';
import { useChannels } from '../../data/channels.ts';
import { forwardMessage } from '../../data/messages.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { htmlPreview } from './message-html.ts';

export function ForwardDialog({ message, onClose }: { message: MessageDoc | null; onClose: () => void }) {
  const workspace = useWorkspace();
  const joined = useChannels(workspace.institution.id);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const q = query.trim().toLowerCase();
  const targets = (joined?.channels ?? [])
    .map((channel) => ({ channel, label: channelLabel(channel, workspace) }))
    .filter((t) => !q || t.label.title.toLowerCase().includes(q))
    .sort((a, b) => a.label.title.localeCompare(b.label.title));

  function close() {
    setChosen([]);
    setQuery('');
    onClose();
  }

  async function send() {
    if (!message || chosen.length === 0) return;
    try {
      await forwardMessage(message.genId, chosen);
      close();
    } catch (error) {
      notifyError(error);
    }
  }

  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => (open ? null : close())}
      title="Forward message"
      description={message ? htmlPreview(message.content).slice(0, 120) || undefined : undefined}
    >
      <div className="relative mb-2">
        <Search className="pointer-events-none absolute top-2 left-2.5 size-4 text-faint" aria-hidden />
        <input
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Find a channel or person"
          aria-label="Find a channel or person"
          className="h-8 w-full rounded-md border border-line bg-surface-2 pr-2 pl-8 text-[13px] outline-none focus:border-accent"
        />
      </div>
      <ul className="max-h-72 space-y-0.5 overflow-y-auto" aria-label="Channels">
        {targets.map(({ channel, label }) => {
          const checked = chosen.includes(channel.id);
          const full = !checked && chosen.length >= FORWARD_TARGETS_MAX;
          const other = label.otherMemberId ? workspace.membersById.get(label.otherMemberId) : undefined;
          return (
            <li key={channel.id}>
              <label className="flex h-9 cursor-pointer items-center gap-2 rounded-md px-2 text-[13px] hover:bg-hover">
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={full}
                  onChange={() =>
                    setChosen(checked ? chosen.filter((id) => id !== channel.id) : [...chosen, channel.id])
                  }
                  className="size-4 accent-[var(--accent)]"
                />
                {label.isDirect ? (
                  <Avatar
                    id={label.otherMemberId ?? channel.id}
                    name={label.title}
                    src={other?.profileImage}
                    size="xs"
                  />
                ) : channel.type === 'private' ? (
                  <Lock className="size-3.5 text-muted" aria-hidden />
                ) : (
                  <Hash className="size-3.5 text-muted" aria-hidden />
                )}
                <span className="truncate">{label.title}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="ghost" onClick={close}>
          Cancel
        </Button>
        <Button disabled={chosen.length === 0} onClick={() => void send()}>
          Forward{chosen.length > 1 ? ` to ${chosen.length}` : ''}
        </Button>
      </div>
    </Dialog>
  );
}
