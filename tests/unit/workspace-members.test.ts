// The workspace context's member map leaves presence out, so that a colleague coming or going renews
// neither the map nor any member in it, and every reader of the context (the layout, the sidebar, each
// message row) keeps what it rendered; any other change to a member renews that member and the map.
import { describe, expect, it } from 'vitest';
import type { MemberDoc } from '../../schemas/collections.ts';
import { membersWithoutPresence } from '../../src/app/workspace-members.ts';

function member(id: string, name: string, isOnline: boolean): MemberDoc {
  return {
    id,
    institutionId: 'w1',
    role: 'member',
    name,
    email: `${name.toLowerCase()}@example.com`,
    profileImage: null,
    user: { id: `u-${id}`, isOnline },
    createdAt: '2026-11-01T00:00:00.000Z',
    kind: 'user',
  };
}

describe('the workspace member map', () => {
  const first = membersWithoutPresence(new Map(), [member('a', 'Ada', true), member('g', 'Grace', false)]);

  it('holds no online state', () => {
    expect(first.get('a')).toEqual({ ...member('a', 'Ada', true), user: { id: 'u-a' } });
  });

  it('is the same map, with the same members, when only someone’s presence changed', () => {
    const next = membersWithoutPresence(first, [member('a', 'Ada', false), member('g', 'Grace', true)]);
    expect(next).toBe(first);
  });

  it('is the same map when the live list hands the same member objects again', () => {
    const rows = [member('a', 'Ada', true), member('g', 'Grace', false)];
    const once = membersWithoutPresence(new Map(), rows);
    expect(membersWithoutPresence(once, [...rows])).toBe(once);
    const renamed = { ...rows[1]!, name: 'Grace Hopper' };
    const next = membersWithoutPresence(once, [rows[0]!, renamed]);
    expect(next.get('g')?.name).toBe('Grace Hopper');
    expect(next.get('a')).toBe(once.get('a'));
  });

  it('is renewed for a renamed member, keeping the others’ objects', () => {
    const next = membersWithoutPresence(first, [member('a', 'Ada', true), member('g', 'Grace Hopper', true)]);
    expect(next).not.toBe(first);
    expect(next.get('g')?.name).toBe('Grace Hopper');
    expect(next.get('a')).toBe(first.get('a'));
  });

  it('is renewed when a member joins or leaves', () => {
    const joined = membersWithoutPresence(first, [
      member('a', 'Ada', true),
      member('g', 'Grace', false),
      member('t', 'Tomas', true),
    ]);
    expect([...joined.keys()]).toEqual(['a', 'g', 't']);
    const left = membersWithoutPresence(first, [member('a', 'Ada', true)]);
    expect([...left.keys()]).toEqual(['a']);
  });
});
