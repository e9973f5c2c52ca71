import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useMembers } from '../../data/members.ts';
import { AgentBadge, isAgent } from '../messages/agent-badge.tsx';
import { Avatar } from '../ui/avatar.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { Spinner } from '../ui/states.tsx';
import { openDirectMessage } from './direct-message.ts';
import { matchMembers } from './member-search.ts';

export function NewMessageDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New direct message"
      description="Pick someone from your workspace, or an AI agent to ask it directly."
    >
      {open ? <MemberPicker onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function MemberPicker({ onDone }: { onDone: () => void }) {
  const { institution, me } = useWorkspace();
  const members = useMembers(institution.id);
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const navigate = useNavigate();

  async function pick(memberId: string) {
    setBusy(memberId);
    if (await openDirectMessage(navigate, institution.id, memberId)) onDone();
    setBusy(null);
  }

  return (
    <div className="flex flex-col gap-3 pt-2">
      <SearchField
        value={query}
        onChange={setQuery}
        placeholder="Search by name or e-mail"
        label="Search people"
        autoFocus
      />
      {members === undefined ? (
        <Spinner />
      ) : (
        <ul className="-mx-2 flex flex-col">
          {matchMembers(members, query).map((m) => (
            <li key={m.id}>
              <button
                type="button"
                disabled={busy !== null}
                onClick={() => void pick(m.id)}
                className="flex w-full items-center gap-3 rounded-md px-2 py-1.5 text-left hover:bg-hover disabled:opacity-60"
              >
                <Avatar
                  id={m.id}
                  name={m.name || m.email}
                  src={m.profileImage}
                  size="sm"
                  online={isAgent(m) ? undefined : m.user.isOnline}
                />
                <span className="flex min-w-0 flex-1 items-center gap-1.5 text-sm">
                  <span className="truncate font-medium">{m.name || m.email}</span>
                  {isAgent(m) ? <AgentBadge /> : null}
                  {m.id === me.id ? <span className="text-muted">(you)</span> : null}
                </span>
                {/* An agent's address is a placeholder nobody can write to: not worth showing. */}
                <span className="hidden truncate text-xs text-muted sm:block">
                  {isAgent(m) ? 'AI agent' : m.email}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
