// What the channel role, membership and request services need: the database, the broadcaster, and the
// realtime controls that keep users' sockets in step with channel membership.
import type { AppContext } from '../context.ts';
import type { RealtimeControls } from '../realtime-controls.ts';

export type ChannelServiceContext = Pick<AppContext, 'db' | 'broadcast'> & {
  realtime: Pick<RealtimeControls, 'joinChannel' | 'leaveChannel' | 'onlineUserIds'>;
};
