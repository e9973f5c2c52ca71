// Member directory: everyone in the workspace, searchable, one click to a direct message.
import { BookUser, MessageSquare, Search } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { Input } from '../components/ui/input.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { openDirectMessage } from '../components/workspace/direct-message.ts';
import { matchMembers, ROLE_LABEL } from '../components/workspace/member-search.ts';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { useMembers } from '../data/hooks.ts';

export function DirectoryScreen() {
  usePageTitle('Directory');
  const { institution, me } = useWorkspace();
  const members = useMembers(institution.id);
  const [query, setQuery] = useState('');
  const [opening, setOpening] = useState<string | null>(null);
  const navigate = useNavigate();
  const list = members ? matchMembers(members, query) : undefined;

  async function message(memberId: string) {
    setOpening(memberId);
    await openDirectMessage(navigate, institution.id, memberId);
    setOpening(null);
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title="Directory"
        icon={<BookUser />}
        subtitle={members ? `${members.length} ${members.length === 1 ? 'member' : 'members'}` : undefined}
      />
      <div className="border-b border-line px-4 py-3">
        <div className="relative mx-auto max-w-3xl">
          <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-faint" aria-hidden />
          <Input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by name or e-mail"
            aria-label="Search members"
            className="pl-8"
          />
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {list === undefined ? (
          <Spinner />
        ) : list.length === 0 ? (
          <EmptyState icon={Search} title="No one matches that search">
            Try part of a name or an e-mail address.
          </EmptyState>
        ) : (
          <ul className="mx-auto flex max-w-3xl flex-col px-2 py-2 md:px-4" aria-label="Members">
            {list.map((m) => (
              <li key={m.id} className="flex items-center gap-3 rounded-lg px-2 py-2 hover:bg-hover">
                <Avatar id={m.id} name={m.name || m.email} src={m.profileImage} online={m.user.isOnline} />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">
                    {m.name || m.email}
                    {m.id === me.id ? <span className="font-normal text-muted"> (you)</span> : null}
                  </p>
                  <p className="truncate text-[13px] text-muted">{m.email}</p>
                </div>
                <span className="hidden rounded-full border border-line px-2 py-0.5 text-xs text-muted sm:inline">
                  {ROLE_LABEL[m.role] ?? m.role}
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  loading={opening === m.id}
                  onClick={() => void message(m.id)}
                  aria-label={`Message ${m.name || m.email}`}
                >
                  <MessageSquare aria-hidden />
                  <span className="hidden sm:inline">Message</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
