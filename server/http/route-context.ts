// What the workspace, channel and user routes get beyond AppContext: the realtime controls that keep
// socket rooms and presence in step with membership changes made over REST.
import type { AppContext } from '../context.ts';
import type { Realtime } from '../realtime/index.ts';

export type RealtimeControls = Pick<
  Realtime,
  'io' | 'onlineUserIds' | 'joinInstitution' | 'joinChannel' | 'leaveChannel' | 'disconnectSession'
>;

export interface RouteContext extends AppContext {
  realtime: RealtimeControls;
}
