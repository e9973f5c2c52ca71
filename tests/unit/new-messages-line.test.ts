// Where the "New messages" line goes when a channel opens with unread messages (decision 0084).
import { describe, expect, it } from 'vitest';
import type { MessageDoc } from '../../schemas/collections.ts';
import { firstUnread } from '../../src/components/messages/new-messages-line.tsx';
import { pendingMessage } from '../../src/store/pending-message.ts';

const ME = 'me';
function message(createdSeq: number, memberId: string, deleted = false): MessageDoc {
  const m = pendingMessage({
    genId: `g${createdSeq}`,
    memberId,
    institutionId: 'i1',
    channelId: 'c1',
    createdAt: '2026-12-04T09:00:00.000Z',
    content: `<p>number ${createdSeq}</p>`,
  });
  return {
    ...m,
    status: 'confirmed',
    id: `m${createdSeq}`,
    createdSeq,
    seq: createdSeq,
    deletedAt: deleted ? '2026-12-04T09:01:00.000Z' : null,
  };
}

describe('the first unread message', () => {
  it('is the oldest of the newest messages counted as unread: others’, not deleted', () => {
    const list = [
      message(1, 'ann'),
      message(2, 'ann'),
      message(3, ME),
      message(4, 'bob', true),
      message(5, 'bob'),
    ];
    // Two unread: #5 and #2 (one's own #3 and the deleted #4 were never counted).
    expect(firstUnread(list, ME, 2)).toEqual({ genId: 'g2', complete: true });
    expect(firstUnread(list, ME, 1)).toEqual({ genId: 'g5', complete: true });
  });

  it('is none when nothing was unread', () => {
    expect(firstUnread([message(1, 'ann')], ME, 0)).toEqual({ genId: null, complete: true });
  });

  it('is the oldest loaded one, not yet final, while the window holds fewer than were unread', () => {
    const list = [message(7, ME), message(8, 'ann'), message(9, 'bob')];
    expect(firstUnread(list, ME, 5)).toEqual({ genId: 'g8', complete: false });
    expect(firstUnread([], ME, 3)).toEqual({ genId: null, complete: false });
  });

  it('skips a message still being sent', () => {
    const pending = pendingMessage({
      genId: 'p1',
      memberId: 'ann',
      institutionId: 'i1',
      channelId: 'c1',
      createdAt: '2026-12-04T09:02:00.000Z',
      content: '<p>sending</p>',
    });
    expect(firstUnread([message(1, 'ann'), pending], ME, 1)).toEqual({ genId: 'g1', complete: true });
  });
});
