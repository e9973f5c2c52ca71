// Who is in a channel: fetched into the store with their member records, added and removed by managers.

import type { ChannelMemberDoc, MemberDoc } from '../../schemas/collections.ts';
import type { ChannelMemberEntry } from '../../schemas/protocol/index.ts';
import { fetchChannelMembers } from '../store/workspaces.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useStoreRead } from './store-reads.ts';

/** A person in a channel: membership (with role ids) and their workspace member record. */
interface ChannelMemberView {
  channelMember: ChannelMemberDoc;
  member: MemberDoc | null;
}

/**
 * Everyone in a channel as last fetched (refreshed from the server when the hook mounts), by name.
 * `roleId` keeps only holders of that role.
 */
export function useChannelMembersOf(
  institutionId: string,
  channelId: string,
  roleId?: string,
): ChannelMemberView[] | undefined {
  useRefreshOnMount(channelId ? `${institutionId}/${channelId}` : null, () =>
    refreshChannelMembers(institutionId, channelId),
  );
  return useStoreRead('channelMembersOf', { institutionId, channelId, roleId: roleId ?? null });
}

/** Everyone in a channel into the store (their member records too); `roleId` filters on the server. */
export async function refreshChannelMembers(
  institutionId: string,
  channelId: string,
): Promise<ChannelMemberEntry[]> {
  return fetchChannelMembers(await requireClient(), institutionId, channelId);
}

export async function addChannelMembers(
  institutionId: string,
  channelId: string,
  memberIds: string[],
): Promise<void> {
  const { http } = await requireConnection();
  await http.call('addChannelMembers', {
    params: { id: institutionId, channelId },
    body: { members: memberIds },
  });
  await refreshChannelMembers(institutionId, channelId);
}

export async function removeChannelMembers(
  institutionId: string,
  channelId: string,
  memberIds: string[],
): Promise<void> {
  const { http } = await requireConnection();
  await http.call('removeChannelMembers', {
    params: { id: institutionId, channelId },
    body: { members: memberIds },
  });
  await refreshChannelMembers(institutionId, channelId);
}
