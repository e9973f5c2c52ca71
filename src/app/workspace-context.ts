// The open workspace, shared by the client layout with every screen under /client/:clientId.
import { createContext, useContext } from 'react';
import type { MemberDoc } from '../../schemas/collections.ts';
import type { InstitutionWithMember } from '../../schemas/protocol/index.ts';

/**
 * A member as the workspace context holds them: without their online state, which changes far more often
 * than anything else about them and is read per dot through `useOnline` (presence.ts).
 */
export type WorkspaceMember = Omit<MemberDoc, 'user'> & { user: Omit<MemberDoc['user'], 'isOnline'> };

export interface Workspace {
  institution: InstitutionWithMember;
  /** The signed-in user's member record in this workspace. */
  me: InstitutionWithMember['member'];
  /** Members by id; empty until the directory has loaded. The same map while nobody changes but presence. */
  membersById: ReadonlyMap<string, WorkspaceMember>;
}

export const WorkspaceContext = createContext<Workspace | null>(null);

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace is used outside the client layout');
  return workspace;
}

/** The name a channel shows: '#name' for channels, the other person for a direct message. */
export function channelLabel(
  channel: { name: string; type: string; directMessageMembers: string[] | null },
  workspace: Pick<Workspace, 'me' | 'membersById'>,
): { title: string; isDirect: boolean; isSelf: boolean; otherMemberId: string | null } {
  if (channel.type !== 'direct_message') {
    return { title: channel.name, isDirect: false, isSelf: false, otherMemberId: null };
  }
  const ids = channel.directMessageMembers ?? [];
  const other = ids.find((id) => id !== workspace.me.id) ?? ids[0] ?? null;
  const person = other ? workspace.membersById.get(other) : undefined;
  const self = other === workspace.me.id;
  const name = person?.name || person?.email || 'Direct message';
  return { title: name, isDirect: true, isSelf: self, otherMemberId: other };
}
