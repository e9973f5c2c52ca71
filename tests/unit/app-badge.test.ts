// The app badge's number (src/app/app-badge.ts): the person's own memberships only, across workspaces,
// muted channels left out.
import { describe, expect, it } from 'vitest';
import { unreadTotal } from '../../src/store/unread-total.ts';

describe('app badge total', () => {
  it('adds the person’s unread counts in every workspace, leaving out muted channels and other people', () => {
    const institutions = [{ member: { id: 'me-in-a' } }, { member: { id: 'me-in-b' } }];
    expect(
      unreadTotal(institutions, [
        { memberId: 'me-in-a', unreadCount: 2 },
        { memberId: 'me-in-b', unreadCount: 3, muted: false },
        { memberId: 'me-in-b', unreadCount: 40, muted: true },
        { memberId: 'someone-else', unreadCount: 9 },
      ]),
    ).toBe(5);
    expect(unreadTotal(institutions, [])).toBe(0);
  });
});
