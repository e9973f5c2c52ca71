// Browse the workspace's channels and join one; joining opens it (spec §2 routing rules). A private
// channel the person is not in takes a join request with a reason instead, then shows it as pending.
import { Check, Hash, Lock } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { notifyError } from '../../app/notify.ts';
import { useMyRequests } from '../../data/channel-requests.ts';
import { joinChannel, useBrowsableChannels, useChannels } from '../../data/channels.ts';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { SearchField } from '../ui/search-field.tsx';
import { Spinner } from '../ui/states.tsx';
import { PendingRequest, RequestToJoinForm } from './request-to-join.tsx';

export function BrowseChannelsDialog({
  institutionId,
  open,
  onOpenChange,
}: {
  institutionId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Browse channels" className="max-w-lg">
      {open ? <ChannelBrowser institutionId={institutionId} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function ChannelBrowser({ institutionId, onDone }: { institutionId: string; onDone: () => void }) {
  const channels = useBrowsableChannels(institutionId);
  const joined = useChannels(institutionId);
  const [query, setQuery] = useState('');
  const [joining, setJoining] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const requests = useMyRequests(institutionId);
  const pendingIds = useMemo(
    () => new Set(requests?.filter((r) => r.status === 'pending').map((r) => r.channelId)),
    [requests],
  );
  const navigate = useNavigate();
  const joinedIds = useMemo(() => new Set(joined?.channels.map((c) => c.id)), [joined]);
  const list = useMemo(
    () =>
      (channels ?? [])
        .filter((c) => c.type !== 'direct_message' && c.name.includes(query.trim().toLowerCase()))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [channels, query],
  );

  async function join(channelId: string) {
    setJoining(channelId);
    try {
      if (!joinedIds.has(channelId)) await joinChannel(institutionId, channelId);
      onDone();
      void navigate(`/client/${institutionId}/channel/${channelId}`);
    } catch (err) {
      notifyError(err);
    } finally {
      setJoining(null);
    }
  }

  return (
    <div className="flex flex-col gap-3 pt-2">
      <SearchField
        value={query}
        onChange={setQuery}
        placeholder="Search channels"
        label="Search channels"
        autoFocus
      />
      {channels === undefined ? (
        <Spinner />
      ) : list.length === 0 ? (
        <p className="py-6 text-center text-[13px] text-muted">
          {query ? 'No channel matches that name.' : 'There are no other channels yet.'}
        </p>
      ) : (
        <ul className="-mx-2 flex flex-col">
          {list.map((channel) => {
            const isJoined = joinedIds.has(channel.id);
            const Icon = channel.type === 'private' ? Lock : Hash;
            const isPrivateOther = channel.type === 'private' && !isJoined;
            return (
              <li key={channel.id} className="rounded-md px-2 py-2 hover:bg-hover">
                <div className="flex items-center gap-3">
                  <Icon className="size-4 text-muted" aria-hidden />
                  <span className="min-w-0 flex-1 truncate text-sm font-medium">{channel.name}</span>
                  {isJoined ? (
                    <Button size="sm" variant="ghost" onClick={() => void join(channel.id)}>
                      <Check aria-hidden />
                      Joined
                    </Button>
                  ) : isPrivateOther && pendingIds.has(channel.id) ? (
                    <PendingRequest channelName={channel.name} />
                  ) : isPrivateOther ? (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setAsking(asking === channel.id ? null : channel.id)}
                      aria-expanded={asking === channel.id}
                    >
                      Request to join
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="outline"
                      loading={joining === channel.id}
                      onClick={() => void join(channel.id)}
                      aria-label={`Join ${channel.name}`}
                    >
                      Join
                    </Button>
                  )}
                </div>
                {isPrivateOther && asking === channel.id && !pendingIds.has(channel.id) ? (
                  <div className="mt-2 pl-7">
                    <RequestToJoinForm
                      institutionId={institutionId}
                      channelId={channel.id}
                      channelName={channel.name}
                      onDone={() => setAsking(null)}
                      compact
                    />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
