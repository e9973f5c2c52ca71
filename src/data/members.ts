import type { MemberDoc } from '../../schemas/collections.ts';
import type { Member, MemberProfile, WorkspaceRole } from '../../schemas/protocol/index.ts';
import { putRecord } from '../store/records.ts';
import { requireClient, requireConnection } from './client.ts';
import { useRefreshOnMount } from './live-query.ts';
import { useStoreRead } from './store-reads.ts';

export function useMembers(institutionId: string): MemberDoc[] | undefined {
  return useStoreRead('members', { institutionId });
}

/** A member's profile (member and the channels they show), fetched on mount and kept for offline. */
export function useMemberProfile(institutionId: string, memberId: string): MemberProfile | null | undefined {
  useRefreshOnMount(`${institutionId}/${memberId}`, () => refreshMemberProfile(institutionId, memberId));
  return useStoreRead('memberProfile', { memberId });
}

/** Workspace members into the store. */
export async function refreshMembers(institutionId: string): Promise<void> {
  await (await requireConnection()).worker.refreshStore({ kind: 'members', institutionId });
}

/** Changes one member's workspace role (admins; nobody demotes the primary owner). */
export async function updateMemberRole(
  institutionId: string,
  memberId: string,
  role: WorkspaceRole,
): Promise<Member> {
  const { http, db } = await requireClient();
  const { member } = await http.call('updateMember', {
    params: { id: institutionId, memberId },
    body: { role },
  });
  await db.members.upsert(member);
  await refreshOwnInstitution(institutionId, member);
  return member;
}

/**
 * Gives several members one workspace role in one call (all of them or none: the server refuses the whole
 * change, naming each member it would not change). Answers the changed members.
 */
export async function updateMemberRoles(
  institutionId: string,
  memberIds: string[],
  role: WorkspaceRole,
): Promise<Member[]> {
  const { http, db } = await requireClient();
  const { data } = await http.call('updateMembers', {
    params: { id: institutionId },
    body: { memberIds, update: { role } },
  });
  await db.members.bulkUpsert(data);
  return data;
}

/** When the changed member is the caller, the stored workspace (and so its permissions) follows. */
async function refreshOwnInstitution(institutionId: string, member: Member): Promise<void> {
  const { db } = await requireClient();
  const inst = await db.institutions.findOne(institutionId).exec();
  if (inst && inst.member.id === member.id) await inst.incrementalPatch({ member });
}

/** A member's profile (their channels shown on it) into the store. */
async function refreshMemberProfile(institutionId: string, memberId: string): Promise<MemberProfile> {
  const { http, db } = await requireClient();
  const profile = await http.call('memberProfile', { params: { id: institutionId, memberId } });
  await putRecord(db, 'memberProfile', profile, { scope: institutionId, institutionId });
  await db.members.upsert(profile.member);
  return profile;
}
