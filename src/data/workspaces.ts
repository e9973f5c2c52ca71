// Workspaces and invitations: the list in the store, the selected one, creating, inviting, joining,
// declining and leaving, and what the caller's workspace role allows (spec §6).

import type { WorkspacePermissions } from '../../schemas/permissions.ts';
import type {
  InstitutionWithMember,
  InvitationWithInstitution,
  WorkspaceRole,
} from '../../schemas/protocol/index.ts';
import { refreshJoinedChannels } from './channels.ts';
import { requireClient, requireConnection, type StoreClient } from './client.ts';
import { refreshMembers } from './members.ts';
import { useStoreRead } from './store-reads.ts';

export function useInstitutions(): InstitutionWithMember[] | undefined {
  return useStoreRead('institutions', {});
}

export function useSelectedInstitutionId(): string | null | undefined {
  return useStoreRead('selectedInstitutionId', {});
}

export function useInvitations(): InvitationWithInstitution[] | undefined {
  return useStoreRead('invitations', {}) as InvitationWithInstitution[] | undefined;
}

interface WorkspaceAccess extends WorkspacePermissions {
  role: WorkspaceRole;
  /** primary_owner, owner and admin: change member roles, invite. */
  canManageMembers: boolean;
  isPrimaryOwner: boolean;
}

/** The caller's workspace role and what it allows (spec §6), from the stored workspace. */
export function useWorkspacePermissions(institutionId: string): WorkspaceAccess | null | undefined {
  return useStoreRead('workspacePermissions', { institutionId });
}

export async function createInstitution(name: string): Promise<InstitutionWithMember> {
  const { http, db } = await requireClient();
  const res = await http.call('createWorkspace', { body: { name } });
  const doc: InstitutionWithMember = { ...res.institution, member: res.member };
  await db.institutions.upsert(doc);
  return doc;
}

export async function selectInstitution(id: string): Promise<void> {
  await (await requireConnection()).worker.selectWorkspace(id);
  await Promise.all([refreshJoinedChannels(id), refreshMembers(id)]);
}

/** Workspaces and pending invitations from the server into the store; resolves with the listed ids. */
export async function refreshInstitutions(): Promise<string[]> {
  return (await requireConnection()).worker.refreshWorkspaces();
}

export async function inviteMembers(institutionId: string, emails: string[]): Promise<void> {
  const { http } = await requireConnection();
  await http.call('invite', { params: { id: institutionId }, body: { emails } });
}

export async function acceptInvitation(institutionId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('acceptInvitation', { params: { id: institutionId } });
  // The workspace in the store is all the next screen needs; it selects it and loads channels and
  // members itself, so joining on a slow connection does not wait for those lists too.
  await refreshInstitutions();
}

/** Declines an invitation: it disappears here and for the workspace's admins. */
export async function declineInvitation(invitationId: string): Promise<void> {
  const { http } = await requireConnection();
  await http.call('declineInvitation', { params: { invitationId } });
  await refreshInstitutions();
}

/**
 * Leaves a workspace: the server drops the membership, the store forgets the workspace and the
 * selection moves to another one (or none). The screen clears its last channel and navigates to /.
 */
export async function leaveInstitution(institutionId: string): Promise<void> {
  const { http, db, worker } = await requireClient();
  await http.call('leaveWorkspace', { params: { id: institutionId } });
  await forgetInstitution(db, institutionId);
  const session = await db.session.findOne('current').exec();
  if (session?.selectedInstitutionId === institutionId) {
    const other = await db.institutions.findOne().exec();
    await session.incrementalPatch({ selectedInstitutionId: other?.id ?? null });
  }
  await worker.channelsChanged();
}

async function forgetInstitution(db: StoreClient['db'], institutionId: string): Promise<void> {
  const channelIds = (await db.channels.find({ selector: { institutionId } }).exec()).map((c) => c.id);
  await db.channelMembers.find({ selector: { channelId: { $in: channelIds } } }).remove();
  await db.syncState.find({ selector: { institutionId } }).remove();
  await db.messages.find({ selector: { institutionId } }).remove();
  await db.drafts.find({ selector: { institutionId } }).remove();
  await db.records.find({ selector: { institutionId } }).remove();
  await db.members.find({ selector: { institutionId } }).remove();
  await db.channels.find({ selector: { institutionId } }).remove();
  await db.institutions.findOne(institutionId).remove();
}
