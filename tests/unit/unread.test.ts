// Spec §4 unread rule.
import { describe, expect, it } from 'vitest';
import { raisesUnread } from '../../src/store/unread.ts';

const facts = (over: Partial<Parameters<typeof raisesUnread>[0]> = {}) => ({
  channelId: 'c1',
  authorMemberId: 'other',
  ownMemberId: 'me',
  openChannelIds: new Set<string>(),
  isNew: true,
  ...over,
});

describe('unread counts', () => {
  it('rise for someone else’s new message in a channel that is not open', () => {
    expect(raisesUnread(facts())).toBe(true);
  });
  it('do not rise in the open channel', () => {
    expect(raisesUnread(facts({ openChannelIds: new Set(['c1']) }))).toBe(false);
  });
  it('do not rise for one’s own message', () => {
    expect(raisesUnread(facts({ authorMemberId: 'me' }))).toBe(false);
  });
  it('do not rise twice for a message the store already had', () => {
    expect(raisesUnread(facts({ isNew: false }))).toBe(false);
  });
});
