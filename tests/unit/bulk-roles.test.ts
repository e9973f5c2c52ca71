// Changing several members' roles from the directory (decision 0055): who changes, who has the role
// already, who is refused and why (the primary owner, oneself, owners for a non-primary owner), and how
// ticking rows (one, a Shift range, all shown) builds the selection.
import { describe, expect, it } from 'vitest';
import type { MemberDoc } from '../../schemas/collections.ts';
import type { WorkspaceRole } from '../../schemas/protocol/index.ts';
import { roleChangeRefusal } from '../../schemas/role-changes.ts';
import { tickAllShown, tickMember } from '../../src/components/directory/member-selection.ts';
import {
  assignableRoles,
  fixedRoleReason,
  OWN_ROLE_REASON,
  planRoleChange,
} from '../../src/components/directory/role-change-plan.ts';

function member(id: string, role: WorkspaceRole, kind: 'user' | 'agent' = 'user'): MemberDoc {
  return {
    id,
    institutionId: 'i1',
    role,
    name: id,
    email: `${id}@example.com`,
    profileImage: null,
    user: { id: `u-${id}`, isOnline: false },
    createdAt: '2026-01-01T00:00:00.000Z',
    kind,
  } as MemberDoc;
}

const ada = member('ada', 'primary_owner');
const me = member('me', 'admin');
const grace = member('grace', 'member');
const alan = member('alan', 'guest');
const linus = member('linus', 'admin');
const olivia = member('olivia', 'owner');

describe('planning a bulk role change', () => {
  it('changes the others and refuses the primary owner and oneself, saying why', () => {
    const plan = planRoleChange(me, [ada, grace, alan, me, linus], 'admin');
    expect(plan.change.map((m) => m.id)).toEqual(['grace', 'alan']);
    expect(plan.same.map((m) => m.id)).toEqual(['linus']);
    expect(plan.refused).toEqual([
      { member: ada, reason: 'Nobody can change the primary owner’s role' },
      { member: me, reason: OWN_ROLE_REASON },
    ]);
  });

  it('lets only the primary owner make or unmake owners, as the server does', () => {
    expect(planRoleChange(me, [olivia, grace], 'member').refused.map((r) => r.member.id)).toEqual(['olivia']);
    expect(planRoleChange(me, [grace], 'owner').change).toEqual([]);
    expect(planRoleChange(ada, [olivia, grace], 'owner').change.map((m) => m.id)).toEqual(['grace']);
    expect(planRoleChange(ada, [olivia], 'member').change.map((m) => m.id)).toEqual(['olivia']);
    expect(assignableRoles('admin')).not.toContain('owner');
    expect(assignableRoles('primary_owner')).toContain('owner');
    expect(assignableRoles('primary_owner')).not.toContain('primary_owner');
  });

  it('refuses agents and callers who are not admins with the server’s sentences', () => {
    expect(roleChangeRefusal(me, member('bot', 'member', 'agent'), 'guest')).toMatch(/agent has no/);
    expect(roleChangeRefusal(grace, alan, 'member')).toBe(
      'Only workspace owners and admins can change roles',
    );
  });

  it('marks the rows whose role can never be changed from here', () => {
    expect(fixedRoleReason(me, ada)).toBe('Nobody can change the primary owner’s role');
    expect(fixedRoleReason(me, me)).toBe(OWN_ROLE_REASON);
    expect(fixedRoleReason(me, grace)).toBeNull();
  });
});

describe('ticking members', () => {
  const shown = ['a', 'b', 'c', 'd', 'e'];

  it('toggles one row on a plain click', () => {
    const one = tickMember(new Set(), shown, 'b', true, null, false);
    expect([...one]).toEqual(['b']);
    expect([...tickMember(one, shown, 'b', false, 'b', false)]).toEqual([]);
  });

  it('sets the whole range from the last ticked row on Shift+click, either way up', () => {
    expect([...tickMember(new Set(['b']), shown, 'd', true, 'b', true)].sort()).toEqual(['b', 'c', 'd']);
    expect([...tickMember(new Set(['d']), shown, 'a', true, 'd', true)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...tickMember(new Set(shown), shown, 'd', false, 'b', true)].sort()).toEqual(['a', 'e']);
  });

  it('treats Shift+click as a plain click when the last ticked row is no longer shown', () => {
    expect([...tickMember(new Set(['x']), shown, 'c', true, 'x', true)].sort()).toEqual(['c', 'x']);
  });

  it('ticks all shown rows, keeping hidden ones, and unticks them when all were ticked', () => {
    const all = tickAllShown(new Set(['x', 'a']), shown);
    expect([...all].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'x']);
    expect([...tickAllShown(all, shown)]).toEqual(['x']);
  });
});
