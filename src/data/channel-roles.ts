// A channel's roles (spec §6): the list in the store, creating, editing and deleting them, who holds one,
// and handing the channel's ownership on. Every change refetches the members, roles and joined list.

import { useMemo } from 'react';
import type {
  ChannelRole,
  CreateChannelRoleBody,
  UpdateChannelRoleBody,
} from '../../schemas/protocol/index.ts';
import { putRecord, removeRecord } from '../store/records.ts';
import { fetchChannelRoles, syncDefaultRole } from '../store/workspaces.ts';
import { refreshChannelMembers } from './channel-members.ts';
import { refreshJoinedChannels } from './channels.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRecords } from './store-reads.ts';

/** The channel's roles as stored: default role first, then ownership roles, then by name. */
export function useChannelRoles(channelId: string): ChannelRole[] | undefined {
  const roles = useRecords('channelRole', { scope: channelId });
  return useMemo(
    () =>
      roles &&
      [...roles].sort(
        (a, b) =>
          Number(b.isDefault) - Number(a.isDefault) ||
          Number(b.isOwnershipRole) - Number(a.isOwnershipRole) ||
          a.name.localeCompare(b.name),
      ),
    [roles],
  );
}

/** The channel's roles from the server into the store (the default role among them). */
async function refreshChannelRoles(institutionId: string, channelId: string): Promise<ChannelRole[]> {
  return fetchChannelRoles(await requireClient(), institutionId, channelId);
}

async function storeRole(institutionId: string, role: ChannelRole): Promise<ChannelRole> {
  const { db } = await requireClient();
  await putRecord(db, 'channelRole', role, { scope: role.channelId, institutionId });
  await syncDefaultRole(db, [role]);
  return role;
}

export async function createChannelRole(
  institutionId: string,
  channelId: string,
  input: CreateChannelRoleBody,
): Promise<ChannelRole> {
  const { http } = await requireConnection();
  const { role } = await http.call('createChannelRole', {
    params: { id: institutionId, channelId },
    body: input,
  });
  return storeRole(institutionId, role);
}

/** Renames a role or changes its flags; the channel's default role is edited the same way. */
export async function updateChannelRole(
  institutionId: string,
  channelId: string,
  roleId: string,
  patch: UpdateChannelRoleBody,
): Promise<ChannelRole> {
  const { http } = await requireConnection();
  const { role } = await http.call('updateChannelRole', {
    params: { id: institutionId, channelId, roleId },
    body: patch,
  });
  return storeRole(institutionId, role);
}

export async function deleteChannelRole(
  institutionId: string,
  channelId: string,
  roleId: string,
): Promise<void> {
  const { http, db } = await requireClient();
  await http.call('deleteChannelRole', { params: { id: institutionId, channelId, roleId } });
  await removeRecord(db, 'channelRole', roleId);
  // Holders lose the role on the server; mirror that in the memberships we hold.
  await refreshChannelMembership(institutionId, channelId);
}

/** Exactly these workspace members hold the role afterwards. */
export async function setRoleMembers(
  institutionId: string,
  channelId: string,
  roleId: string,
  memberIds: string[],
): Promise<void> {
  const { http } = await requireConnection();
  await http.call('setRoleMembers', {
    params: { id: institutionId, channelId, roleId },
    body: { members: memberIds },
  });
  await refreshChannelMembership(institutionId, channelId);
}

/** Hands the channel's ownership to another member of it. */
export async function transferChannelOwnership(
  institutionId: string,
  channelId: string,
  memberId: string,
): Promise<void> {
  const { http } = await requireConnection();
  await http.call('transferOwnership', {
    params: { id: institutionId, channelId },
    body: { member: memberId },
  });
  await refreshChannelMembership(institutionId, channelId);
}

/** After a change of roles or members: the channel's members, its roles and my joined list. */
async function refreshChannelMembership(institutionId: string, channelId: string): Promise<void> {
  await Promise.all([
    refreshChannelMembers(institutionId, channelId),
    refreshChannelRoles(institutionId, channelId),
  ]);
  await refreshJoinedChannels(institutionId);
}
