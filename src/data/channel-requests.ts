// Requests to join a private channel: asking, the managers' list and their answer, and the caller's own.

import { useMemo } from 'react';
import type { ChannelRequest } from '../../schemas/protocol/index.ts';
import { fetchChannelRequests, fetchMyRequests, storeRequests } from '../store/workspaces.ts';
import { refreshChannelMembers } from './channel-members.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useRecords, useStoreRead } from './store-reads.ts';

/** Join requests of a channel the caller manages, pending first then newest (refreshed on mount; live by memberAction). */
export function useChannelRequests(institutionId: string, channelId: string): ChannelRequest[] | undefined {
  // An empty channelId (the caller does not manage the channel) fetches nothing.
  useRefreshOnMount(channelId ? `${institutionId}/${channelId}` : null, () =>
    refreshChannelRequests(institutionId, channelId),
  );
  const list = useRecords('channelRequest', { scope: channelId });
  return useMemo(() => list && sortRequests(list), [list]);
}

/** The caller's own join requests in a workspace, pending first then newest (refreshed on mount; live by memberAction). */
export function useMyRequests(institutionId: string): ChannelRequest[] | undefined {
  useRefreshOnMount(institutionId, () => refreshMyRequests(institutionId));
  const mine = useStoreRead('myChannelRequests', { institutionId });
  return useMemo(() => mine && sortRequests(mine), [mine]);
}

function sortRequests(list: ChannelRequest[]): ChannelRequest[] {
  return [...list].sort(
    (a, b) =>
      Number(b.status === 'pending') - Number(a.status === 'pending') ||
      b.createdAt.localeCompare(a.createdAt),
  );
}

/** Asks to join a private channel; the channel's owners see the request live. */
export async function requestToJoin(
  institutionId: string,
  channelId: string,
  reason: string,
): Promise<ChannelRequest> {
  const { http } = await requireConnection();
  const { request } = await http.call('requestToJoin', {
    params: { id: institutionId, channelId },
    body: { reason },
  });
  await storeRequests((await requireClient()).db, [request]);
  return request;
}

/** A channel's requests (for its managers) from the server into the store. */
async function refreshChannelRequests(institutionId: string, channelId: string): Promise<ChannelRequest[]> {
  return fetchChannelRequests(await requireClient(), institutionId, channelId);
}

/** The caller's own join requests in a workspace into the store. */
async function refreshMyRequests(institutionId: string): Promise<ChannelRequest[]> {
  return fetchMyRequests(await requireClient(), institutionId);
}

/** Approves (adds the member) or rejects a join request. */
export async function answerChannelRequest(
  institutionId: string,
  channelId: string,
  requestId: string,
  status: 'approved' | 'rejected',
): Promise<ChannelRequest> {
  const { http } = await requireConnection();
  const { request } = await http.call('decideChannelRequest', {
    params: { id: institutionId, channelId, requestId },
    body: { status },
  });
  await storeRequests((await requireClient()).db, [request]);
  if (status === 'approved') await refreshChannelMembers(institutionId, channelId).catch(() => undefined);
  return request;
}
