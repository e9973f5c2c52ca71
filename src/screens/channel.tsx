// Channel view (spec §2): header, virtualised messages and the composer. Opening it resets the
// unread count here and on the server; it is remembered as the workspace's last channel.
import { Hash, Lock, LogOut, MoreHorizontal, SearchX } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { notFound, ROUTE_ID } from '../app/http-status-error.ts';
import { rememberLastChannel } from '../app/last-channel.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { channelLabel, useWorkspace } from '../app/workspace-context.ts';
import { Composer } from '../components/messages/composer.tsx';
import { MessageList } from '../components/messages/message-list.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { Menu, MenuContent, MenuItem, MenuTrigger } from '../components/ui/menu.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { ScreenHeader } from '../components/workspace/screen-header.tsx';
import { closeChannel, leaveChannel, openChannel } from '../data/actions.ts';
import { useChannel, useMessages } from '../data/hooks.ts';

export function ChannelScreen() {
  const { channelId = '' } = useParams();
  const location = useLocation();
  const workspace = useWorkspace();
  const institutionId = workspace.institution.id;
  const channel = useChannel(channelId);
  const messages = useMessages(channelId);
  const navigate = useNavigate();

  useEffect(() => {
    rememberLastChannel(institutionId, channelId);
    void openChannel(institutionId, channelId).catch((error: unknown) => console.warn('openChannel', error));
    return () => {
      void closeChannel().catch(() => {});
    };
  }, [institutionId, channelId]);

  const label = channel ? channelLabel(channel, workspace) : null;
  usePageTitle(label ? (label.isDirect ? label.title : `#${label.title}`) : null);

  if (!ROUTE_ID.test(channelId)) throw notFound(location.pathname);
  if (channel === undefined) return <Spinner />;
  if (channel === null || channel.institutionId !== institutionId || !label) {
    return (
      <EmptyState
        icon={SearchX}
        title="This channel is not available"
        action={
          <Button variant="outline" asChild>
            <Link to={`/client/${institutionId}`}>Back to the workspace</Link>
          </Button>
        }
      >
        It may have been removed, or you are not a member of it.
      </EmptyState>
    );
  }

  const person = label.otherMemberId ? workspace.membersById.get(label.otherMemberId) : undefined;
  const canLeave = !label.isDirect && !channel.isDefault;

  async function leave() {
    try {
      await leaveChannel(institutionId, channelId);
      void navigate(`/client/${institutionId}`);
    } catch (error) {
      notifyError(error);
    }
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader
        title={label.isDirect ? label.title : channel.name}
        icon={
          label.isDirect ? (
            <Avatar
              id={label.otherMemberId ?? channel.id}
              name={label.title}
              src={person?.profileImage}
              size="sm"
              online={person?.user.isOnline}
            />
          ) : channel.type === 'private' ? (
            <Lock />
          ) : (
            <Hash />
          )
        }
        subtitle={label.isDirect ? person?.email : undefined}
        actions={
          canLeave ? (
            <Menu>
              <MenuTrigger asChild>
                <Button variant="ghost" size="icon" aria-label="Channel options">
                  <MoreHorizontal />
                </Button>
              </MenuTrigger>
              <MenuContent align="end">
                <MenuItem icon={<LogOut />} destructive onSelect={() => void leave()}>
                  Leave #{channel.name}
                </MenuItem>
              </MenuContent>
            </Menu>
          ) : null
        }
      />
      {messages === undefined ? (
        <Spinner />
      ) : (
        <MessageList key={channelId} channelId={channelId} messages={messages} intro={label} />
      )}
      <Composer
        key={channelId}
        institutionId={institutionId}
        channelId={channelId}
        label={label.isDirect ? `Message ${label.title}` : `Message #${channel.name}`}
      />
    </div>
  );
}
