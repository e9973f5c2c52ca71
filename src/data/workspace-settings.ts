// The workspace settings screen's calls (decision 0054): renaming the workspace, its pending invitations
// (list, resend, revoke) and its default channels (which are, make one default or not, create one). The
// lists are admin-only server data held in memory (remote-query.ts), not in the store; every change
// refetches what it touched. Actions reject with ApiError carrying the server's message.
import type { Channel, WorkspaceInvitation } from '../../schemas/protocol/index.ts';
import { refreshJoinedChannels } from './channels.ts';
import { requireClient, requireConnection } from './client.ts';
import { refreshChecklist } from './onboarding.ts';
import { invalidateRemote, type RemoteState, setRemote, useRemoteQuery } from './remote-query.ts';
import { refreshInstitutions } from './workspaces.ts';

const keys = {
  invitations: (i: string) => `workspace-settings:${i}:invitations`,
  channels: (i: string) => `workspace-settings:${i}:channels`,
};

// ───────────────────────────── the workspace ─────────────────────────────
/** Sets the workspace's picture (a data URL from pictureDataUrl), or removes it with null. */
export function setWorkspacePicture(institutionId: string, picture: string | null): Promise<void> {
  return updateWorkspace(institutionId, { picture });
}

/** Renames the workspace (admins); the sidebar shows the new name. */
export function renameWorkspace(institutionId: string, name: string): Promise<void> {
  return updateWorkspace(institutionId, { name });
}

/** Stores the server's answer at once (a list asked for before cannot take it back), then refreshes. */
async function updateWorkspace(
  institutionId: string,
  body: { name?: string; picture?: string | null },
): Promise<void> {
  const { http, db } = await requireClient();
  const updated = await http.call('renameWorkspace', { params: { id: institutionId }, body });
  await db.institutions.upsert(updated);
  await refreshInstitutions();
}

// ───────────────────────────── invitations ─────────────────────────────
/** The workspace's open invitations, oldest first (admins only: others get 403). */
export function usePendingInvitations(institutionId: string): RemoteState<WorkspaceInvitation[]> {
  return useRemoteQuery(keys.invitations(institutionId), async () => {
    const { http } = await requireConnection();
    return (await http.call('invitations', { params: { id: institutionId } })).data;
  });
}

/** Invitations changed elsewhere (the invite dialog): the list asks again if it is on screen. */
export function refreshPendingInvitations(institutionId: string): Promise<void> {
  return invalidateRemote(keys.invitations(institutionId));
}

/** Sends an invitation's e-mail again; the invitation itself does not change. */
export async function resendInvitation(institutionId: string, invitationId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('resendInvitation', { params: { id: institutionId, invitationId } });
}

/** Revokes invitations by address: accepting them is refused from now on. */
export async function revokeInvitations(institutionId: string, emails: string[]): Promise<void> {
  const { http } = await requireConnection();
  const { data: removed } = await http.call('revokeInvitations', {
    params: { id: institutionId },
    body: { emails },
  });
  const gone = new Set(removed.map((i) => i.id));
  setRemote<WorkspaceInvitation[]>(keys.invitations(institutionId), (list) =>
    list?.filter((i) => !gone.has(i.id)),
  );
  await Promise.all([refreshPendingInvitations(institutionId), refreshChecklist(institutionId)]);
}

// ───────────────────────────── default channels ─────────────────────────────
/** The workspace's public channels (the ones that can be default), by name. */
export function usePublicChannels(institutionId: string): RemoteState<Channel[]> {
  return useRemoteQuery(keys.channels(institutionId), async () => {
    const { http } = await requireConnection();
    const { data } = await http.call('channels', { params: { id: institutionId } });
    return data.filter((c) => c.type === 'public').sort((a, b) => a.name.localeCompare(b.name));
  });
}

/** Makes a public channel default (everyone is put in it) or not; the admin may have just joined it. */
export async function setChannelDefault(
  institutionId: string,
  channelId: string,
  isDefault: boolean,
): Promise<void> {
  const { http } = await requireConnection();
  const { channel } = await http.call('setChannelDefault', {
    params: { id: institutionId, channelId },
    body: { isDefault },
  });
  setRemote<Channel[]>(keys.channels(institutionId), (list) =>
    list?.map((c) => (c.id === channel.id ? channel : c)),
  );
  await Promise.all([refreshJoinedChannels(institutionId), invalidateRemote(keys.channels(institutionId))]);
}

/** Creates a public default channel: every member, present and future, is in it. */
export async function createDefaultChannel(institutionId: string, name: string): Promise<Channel> {
  const { http } = await requireConnection();
  const { channel } = await http.call('createChannel', {
    params: { id: institutionId },
    body: { name, type: 'public', isDefault: true },
  });
  await Promise.all([refreshJoinedChannels(institutionId), invalidateRemote(keys.channels(institutionId))]);
  return channel;
}
