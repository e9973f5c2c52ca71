// What the LTI services are given: the app context's parts they use and the platforms' key cache.
import type { AppContext } from '../context.ts';
import type { PlatformKeys } from './platform-keys.ts';

export type LtiContext = Pick<AppContext, 'db' | 'config' | 'log' | 'secrets' | 'broadcast'> & {
  realtime: Pick<AppContext['realtime'], 'joinInstitution' | 'leaveInstitution' | 'onlineUserIds'>;
  keys: PlatformKeys;
};
