// The workspace context's member map, renewed only when a member changes in something other than their
// online state: a colleague coming online then re-renders their presence dots (presence.ts), not the
// layout, the sidebar and every message row that reads the context.
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { MemberDoc } from '../../schemas/collections.ts';
import { sameContent } from '../store/changed-rows.ts';
import { publishPresence } from './presence.ts';
import type { WorkspaceMember } from './workspace-context.ts';

/** The context's copy made of each listed member object (held only as long as the object itself). */
const fromRow = new WeakMap<MemberDoc, WorkspaceMember>();

function withoutPresence(member: MemberDoc): WorkspaceMember {
  const { isOnline: _online, ...user } = member.user;
  return { ...member, user };
}

/**
 * Members by id without their presence: `before` itself when nobody changed but in presence, and each
 * unchanged member's object from `before` otherwise (memoised rows then skip their render).
 */
export function membersWithoutPresence(
  before: ReadonlyMap<string, WorkspaceMember>,
  members: readonly MemberDoc[],
): ReadonlyMap<string, WorkspaceMember> {
  const next = new Map<string, WorkspaceMember>();
  let changed = before.size !== members.length;
  for (const member of members) {
    const kept = before.get(member.id);
    // The live list hands the same object for a row that has not changed (src/data/store-reads.ts): only the changed
    // member is copied and compared, not the whole workspace at every presence change.
    if (kept && fromRow.get(member) === kept) {
      next.set(member.id, kept);
      continue;
    }
    const stripped = withoutPresence(member);
    const value = kept && sameContent(kept, stripped) ? kept : stripped;
    if (value !== kept) changed = true;
    fromRow.set(member, value);
    next.set(member.id, value);
  }
  return changed ? next : before;
}

/** The context's member map for a workspace's live member list; publishes the presence it leaves out. */
export function useWorkspaceMembers(
  members: readonly MemberDoc[] | undefined,
): ReadonlyMap<string, WorkspaceMember> {
  const previous = useRef<ReadonlyMap<string, WorkspaceMember>>(new Map());
  const membersById = useMemo(() => membersWithoutPresence(previous.current, members ?? []), [members]);
  // Before paint, so a dot mounted with the list shows its state in the same frame.
  useLayoutEffect(() => {
    previous.current = membersById;
    publishPresence(members ?? []);
  }, [members, membersById]);
  return membersById;
}
