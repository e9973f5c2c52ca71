// Workspace groups (primary owner, owners, admins): the list in the store, creating, renaming, deleting,
// and adding or removing members by e-mail.

import { useMemo } from 'react';
import type { Group, GroupEmailsResponse } from '../../schemas/protocol/index.ts';
import { putRecord, removeRecord } from '../store/records.ts';
import { fetchGroups } from '../store/workspaces.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useRecords } from './store-reads.ts';

/** The workspace's groups by name (refreshed from the server on mount). */
export function useGroups(institutionId: string): Group[] | undefined {
  useRefreshOnMount(institutionId, () => refreshGroups(institutionId));
  const list = useRecords('group', { institutionId });
  return useMemo(() => list && [...list].sort((a, b) => a.name.localeCompare(b.name)), [list]);
}

async function storeGroup(group: Group): Promise<Group> {
  const { db } = await requireClient();
  await putRecord(db, 'group', group, { scope: group.institutionId, institutionId: group.institutionId });
  return group;
}

export async function refreshGroups(institutionId: string): Promise<Group[]> {
  return fetchGroups(await requireClient(), institutionId);
}

export async function createGroup(institutionId: string, name: string): Promise<Group> {
  const { http } = await requireConnection();
  const { group } = await http.call('createGroup', { params: { id: institutionId }, body: { name } });
  return storeGroup(group);
}

export async function renameGroup(institutionId: string, groupId: string, name: string): Promise<Group> {
  const { http } = await requireConnection();
  const { group } = await http.call('renameGroup', {
    params: { id: institutionId, groupId },
    body: { name },
  });
  return storeGroup(group);
}

export async function deleteGroup(institutionId: string, groupId: string): Promise<void> {
  const { http, db } = await requireClient();
  await http.call('deleteGroup', { params: { id: institutionId, groupId } });
  await removeRecord(db, 'group', groupId);
}

/** Adds or removes members by e-mail; returns the e-mails that match no member of the workspace. */
export async function updateGroupEmails(
  institutionId: string,
  groupId: string,
  emails: string[],
  action: 'add' | 'remove',
): Promise<GroupEmailsResponse> {
  const { http } = await requireConnection();
  const res = await http.call('groupEmails', {
    params: { id: institutionId, groupId },
    body: { emails, action },
  });
  await storeGroup(res.group);
  return res;
}
