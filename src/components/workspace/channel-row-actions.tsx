// The channel row menu's own actions (issue 15 item 7), as Slack and Mattermost offer them on a sidebar
// row: Mark as read, Mute or Unmute, Copy link, Leave. Rendered only while the menu is open, so a long
// channel list does not watch every membership.
import { Bell, BellOff, CheckCheck, Link2, LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { useMatch, useNavigate } from 'react-router';
import type { ChannelFields } from '../../../schemas/collections.ts';
import { notifyError } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import {
  leaveChannel,
  markChannelRead,
  setChannelMuted,
  useMyChannelMembership,
} from '../../data/channels.ts';
import { MenuItem, MenuSeparator } from '../ui/menu.tsx';

/** The menu's items; `children` (the row's other items, Move to section) go between these and Leave. */
export function ChannelRowActions({
  channel,
  unread,
  children,
}: {
  channel: ChannelFields;
  unread: number;
  children?: ReactNode;
}) {
  const institutionId = useWorkspace().institution.id;
  const membership = useMyChannelMembership(channel.id);
  const navigate = useNavigate();
  const open = useMatch('/client/:clientId/channel/:channelId')?.params.channelId === channel.id;
  const muted = membership?.muted === true;
  const link = `${location.origin}/client/${institutionId}/channel/${channel.id}`;

  return (
    <>
      <MenuItem
        icon={<CheckCheck />}
        disabled={unread === 0}
        onSelect={() => void markChannelRead(institutionId, channel.id).catch(notifyError)}
      >
        Mark as read
      </MenuItem>
      <MenuItem
        icon={muted ? <Bell /> : <BellOff />}
        disabled={!membership}
        onSelect={() =>
          void setChannelMuted(institutionId, channel.id, !muted).then(
            () => toast(muted ? `#${channel.name} is no longer muted` : `#${channel.name} is muted`),
            notifyError,
          )
        }
      >
        {muted ? 'Unmute' : 'Mute'}
      </MenuItem>
      <MenuItem
        icon={<Link2 />}
        onSelect={() =>
          // No clipboard on a plain-http address other than localhost: say so instead of failing silently.
          void (navigator.clipboard?.writeText(link) ?? Promise.reject(new Error('no clipboard'))).then(
            () => toast.success('Link copied'),
            () => toast.error('Could not copy the link'),
          )
        }
      >
        Copy link
      </MenuItem>
      <MenuSeparator />
      {children}
      {channel.isDefault ? null : (
        <>
          <MenuSeparator />
          <MenuItem
            icon={<LogOut />}
            destructive
            onSelect={() =>
              void leaveChannel(institutionId, channel.id).then(() => {
                toast(`You left #${channel.name}`);
                if (open) void navigate(`/client/${institutionId}`);
              }, notifyError)
            }
          >
            Leave #{channel.name}
          </MenuItem>
        </>
      )}
    </>
  );
}
