// A workspace's learning platforms (Settings → Learning platforms, admins only): the list with the tool's
// own addresses to copy into the platform, registering one and removing one. Held in memory through
// remote-query.ts: it is admin data, only useful online.
import type { LtiPlatformBody, LtiPlatformsResponse } from '../../schemas/protocol/index.ts';
import { requireConnection } from './client.ts';
import { invalidateRemote, type RemoteState, useRemoteQuery } from './remote-query.ts';

const key = (institutionId: string) => `lti-platforms:${institutionId}`;

export function useLtiPlatforms(institutionId: string): RemoteState<LtiPlatformsResponse> {
  return useRemoteQuery(key(institutionId), async () => {
    const { http } = await requireConnection();
    return http.call('ltiPlatforms', { params: { id: institutionId } });
  });
}

export async function registerLtiPlatform(institutionId: string, body: LtiPlatformBody): Promise<void> {
  const { http } = await requireConnection();
  await http.call('registerLtiPlatform', { params: { id: institutionId }, body });
  await invalidateRemote(key(institutionId));
}

export async function removeLtiPlatform(institutionId: string, platformId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('removeLtiPlatform', { params: { id: institutionId, platformId } });
  await invalidateRemote(key(institutionId));
}

/** A one-time address (an hour) to paste into Moodle or Canvas for LTI Dynamic Registration. */
export async function createRegistrationLink(institutionId: string): Promise<string> {
  const { http } = await requireConnection();
  const res = await http.call('ltiRegistrationLink', { params: { id: institutionId } });
  await invalidateRemote(key(institutionId));
  return res.url;
}
