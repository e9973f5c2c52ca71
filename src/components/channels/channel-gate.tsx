// A link to a channel that is not on this device: the server says what it points at (decision 0049).
// No such channel (or someone else's direct message) reads "Channel not found"; a private one offers a
// join request; a public one offers to join; offline, the person is told to connect instead of being
// shown a guess.
import { Hash, SearchX, WifiOff } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { notifyError } from '../../app/notify.ts';
import { joinChannel, useChannelLookup } from '../../data/channels.ts';
import { Button } from '../ui/button.tsx';
import { EmptyState, Spinner } from '../ui/states.tsx';
import { PrivateChannelGate } from './request-to-join.tsx';

function BackToWorkspace({ institutionId }: { institutionId: string }) {
  return (
    <Button variant="outline" asChild>
      <Link to={`/client/${institutionId}`}>Back to the workspace</Link>
    </Button>
  );
}

export function ChannelGate({ institutionId, channelId }: { institutionId: string; channelId: string }) {
  const lookup = useChannelLookup(institutionId, channelId);
  const [joining, setJoining] = useState(false);

  if (lookup === undefined) return <Spinner label="Looking for the channel" />;
  if (lookup === 'not-found')
    return (
      <EmptyState
        icon={SearchX}
        title="Channel not found"
        action={<BackToWorkspace institutionId={institutionId} />}
      >
        The link may be mistyped, or the channel was deleted.
      </EmptyState>
    );
  if (lookup === 'unknown')
    return (
      <EmptyState
        icon={WifiOff}
        title="This channel is not on this device yet"
        action={<BackToWorkspace institutionId={institutionId} />}
      >
        Lantern opens it once it can reach the server.
      </EmptyState>
    );
  // In it already: the channel list on this device catches up in a moment.
  if (lookup.isMember) return <Spinner label="Opening the channel" />;
  if (lookup.type === 'private')
    return <PrivateChannelGate institutionId={institutionId} channelId={channelId} />;
  const name = lookup.name ?? 'this channel';
  return (
    <EmptyState
      icon={Hash}
      title={`#${name} is public`}
      action={
        <Button
          disabled={joining}
          onClick={async () => {
            setJoining(true);
            try {
              await joinChannel(institutionId, channelId);
            } catch (error) {
              notifyError(error);
              setJoining(false);
            }
          }}
        >
          {joining ? 'Joining…' : `Join #${name}`}
        </Button>
      }
    >
      You are not in it yet. Join to read along and post.
    </EmptyState>
  );
}
