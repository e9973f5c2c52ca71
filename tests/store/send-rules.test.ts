// Issue 15 item 2: the pure rules of what the composer will not send and what a "Not sent" row offers.
import { describe, expect, it } from 'vitest';
import type { Attachment } from '../../schemas/protocol/index.ts';
import { MESSAGE_CONTENT_MAX } from '../../schemas/protocol/limits.ts';
import { newSince } from '../../src/components/messages/jump-to-latest.ts';
import { fileTooLargeMessage, sendBlocker } from '../../src/components/messages/send-blockers.ts';
import { failureView } from '../../src/components/messages/send-failure.ts';
import { partitionBySize } from '../../src/data/file-limit.ts';
import { pendingMessage } from '../../src/store/pending-message.ts';

const MB = 1024 * 1024;
const makeMessage = (m: { genId: string; memberId: string }) =>
  pendingMessage({ ...m, institutionId: 'i1', channelId: 'c1', createdAt: '2026-11-25T10:00:00.000Z' });
const attachment = (id: string, fileName: string): Attachment =>
  ({ id, fileName, fileType: 'text/plain', fileSize: 10, isUploading: true }) as Attachment;

describe('files over the server limit', () => {
  it('are refused before upload, naming the limit as sizes are written (spec §9)', () => {
    const files = [
      { name: 'notes.txt', size: 10 },
      { name: 'exact.bin', size: 25 * MB },
      { name: 'video.mp4', size: 25 * MB + 1 },
    ];
    const { accepted, tooLarge } = partitionBySize(files, 25 * MB);
    expect(accepted.map((f) => f.name)).toEqual(['notes.txt', 'exact.bin']);
    expect(tooLarge.map((f) => f.name)).toEqual(['video.mp4']);
    expect(fileTooLargeMessage('video.mp4', 25 * MB)).toBe(
      'video.mp4 is larger than 25.00 MB, the largest file this server accepts.',
    );
  });
});

describe('a message with a failed file', () => {
  const a = attachment('a', 'report.pdf');
  const b = attachment('b', 'photo.png');

  it('cannot be sent, and says which file and what to do', () => {
    expect(
      sendBlocker(
        [a, b],
        [
          { id: 'a', status: 'failed' },
          { id: 'b', status: 'uploading' },
        ],
      ),
    ).toBe('report.pdf did not upload. Retry or remove it to send.');
    expect(
      sendBlocker(
        [a, b],
        [
          { id: 'a', status: 'failed' },
          { id: 'b', status: 'failed' },
        ],
      ),
    ).toBe('2 files did not upload. Retry or remove them to send.');
  });

  it('can be sent while files upload or wait for a connection, or once the failed one is removed', () => {
    expect(sendBlocker([a], [{ id: 'a', status: 'queued' }], MESSAGE_CONTENT_MAX)).toBeNull();
    expect(sendBlocker([a], [{ id: 'a', status: 'uploading' }])).toBeNull();
    expect(sendBlocker([b], [{ id: 'a', status: 'failed' }])).toBeNull();
  });
});

describe('"Not sent"', () => {
  const text = { content: '<p>hi</p>', isPoll: false, mine: true };

  it('says why, and offers Retry where sending again can succeed', () => {
    expect(failureView({ lastError: 'An error occurred', retryable: true }, text)).toEqual({
      reason: 'An error occurred.',
      retry: true,
      edit: false,
    });
  });

  it('offers Edit instead of Retry for a refusal that would fail again', () => {
    expect(
      failureView({ lastError: 'Message is too long (at most 40000 characters).', retryable: false }, text),
    ).toEqual({ reason: 'Message is too long (at most 40000 characters).', retry: false, edit: true });
    expect(failureView({ lastError: 'You cannot post in this channel', retryable: false }, text).retry).toBe(
      false,
    );
    // Nothing to edit on a poll.
    expect(failureView({ lastError: 'x', retryable: false }, { ...text, isPoll: true }).edit).toBe(false);
  });

  it('never says nothing', () => {
    expect(failureView({ lastError: null, retryable: false }, text).reason).toBe(
      'The server did not accept it.',
    );
    expect(failureView(undefined, text)).toMatchObject({
      reason: 'The server did not accept it.',
      retry: true,
    });
  });
});

describe('Jump to latest', () => {
  it('counts what others wrote since the person scrolled up, wherever it lands in the list', () => {
    const known = new Set(['g1', 'g2', 'mine-pending']);
    const list = [
      makeMessage({ genId: 'g1', memberId: 'ann' }),
      makeMessage({ genId: 'g2', memberId: 'bob' }),
      // Delivered after a reconnect, before my older pending message: still new.
      makeMessage({ genId: 'g3', memberId: 'bob' }),
      makeMessage({ genId: 'mine-pending', memberId: 'me' }),
      makeMessage({ genId: 'mine-new', memberId: 'me' }),
      makeMessage({ genId: 'g4', memberId: 'ann' }),
    ];
    expect(newSince(list, known, 'me')).toBe(2);
    expect(newSince(list, new Set(list.map((m) => m.genId)), 'me')).toBe(0);
  });
});

describe('a message longer than the server stores', () => {
  it('waits, naming its length and the limit, before any failed file is mentioned', () => {
    const a = attachment('a', 'report.pdf');
    expect(sendBlocker([], [], MESSAGE_CONTENT_MAX + 1)).toBe(
      'This message is too long to send: 40,001 characters with its formatting, and at most 40,000 fit. Shorten it or attach the text as a file.',
    );
    expect(sendBlocker([a], [{ id: 'a', status: 'failed' }], 52_000)).toMatch(/^This message is too long/);
    expect(sendBlocker([], [], MESSAGE_CONTENT_MAX)).toBeNull();
  });
});
