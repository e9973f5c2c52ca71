// Workspace members: the directory in the store, a member's profile, and changing a member's role.

import { combineLatest, map } from 'rxjs';
import type { MemberDoc, RecordDoc } from '../../schemas/collections.ts';
import type { Member, MemberProfile, WorkspaceRole } from '../../schemas/protocol/index.ts';
import { putRecord, recordKey } from '../store/records.ts';
import { fetchMembers } from '../store/workspaces.ts';
import { requireClient } from './client.ts';
import { plainDoc, useObservable, useRefreshOnMount } from './live-query.ts';

export function useMembers(institutionId: string): MemberDoc[] | undefined {
  return useObservable(
    (c) =>
      c.db.members
        .find({ selector: { institutionId } })
        .$.pipe(
          map((docs) => docs.map((d) => plainDoc<MemberDoc>(d)).sort((a, b) => a.name.localeCompare(b.name))),
        ),
    [institutionId],
  );
}

/** A member's profile (member and the channels they show), fetched on mount and kept for offline. */
export function useMemberProfile(institutionId: string, memberId: string): MemberProfile | null | undefined {
  useRefreshOnMount(`${institutionId}/${memberId}`, () => refreshMemberProfile(institutionId, memberId));
  return useObservable(
    (c) =>
      combineLatest([
        c.db.records.findOne(recordKey('memberProfile', memberId)).$,
        c.db.members.findOne(memberId).$,
      ]).pipe(
        map(([profile, member]) => {
          const stored = profile ? (profile.toJSON() as RecordDoc<'memberProfile'>).data : null;
          // The member row carries the live online state; the profile's copy is as old as its fetch.
          if (member) return { member: member.toJSON() as MemberDoc, channels: stored?.channels ?? [] };
          return stored;
        }),
      ),
    [institutionId, memberId],
  );
}

/** Workspace members into the store. */
export async function refreshMembers(institutionId: string): Promise<void> {
  await fetchMembers(await requireClient(), institutionId);
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
