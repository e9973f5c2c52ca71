// The outbox entry state machine (src/store/outbox-state.ts).
import { describe, expect, it } from 'vitest';
import { afterSend, retry, sendable } from '../../src/store/outbox-state.ts';
import { classifyAck } from '../../worker/acknowledgement.ts';
import { makeOutboxEntry, makeServerMessage } from './factories.ts';

describe('outbox state', () => {
  it('confirms and removes the entry when the server acknowledges with the stored message', () => {
    const t = afterSend(makeOutboxEntry(), classifyAck(makeServerMessage()));
    expect(t).toEqual({ entry: null, messageStatus: 'confirmed' });
  });

  it('marks the message failed on an error acknowledgement', () => {
    const t = afterSend(makeOutboxEntry(), classifyAck({ error: { message: 'You cannot post here' } }));
    expect(t.messageStatus).toBe('failed');
    expect(t.entry).toMatchObject({ state: 'failed', lastError: 'You cannot post here', attempts: 1 });
  });

  it('records whether a refusal may succeed if sent again: only when the server says so', () => {
    const refused = afterSend(makeOutboxEntry(), classifyAck({ error: { message: 'You cannot post here' } }));
    expect(refused.entry?.retryable).toBe(false);
    const busy = afterSend(
      makeOutboxEntry(),
      classifyAck({ error: { message: 'An error occurred', retryable: true } }),
    );
    expect(busy.entry).toMatchObject({ state: 'failed', lastError: 'An error occurred', retryable: true });
  });

  it('keeps the message pending on a time-out, to be resent', () => {
    const t = afterSend(makeOutboxEntry(), classifyAck(undefined, new Error('request timed out')));
    expect(t.messageStatus).toBe('pending');
    expect(t.entry).toMatchObject({ state: 'queued', lastError: 'request timed out' });
  });

  it('sets a failed message pending again on retry', () => {
    const failed = afterSend(makeOutboxEntry(), { kind: 'error', message: 'x' }).entry!;
    expect(retry(failed)).toMatchObject({
      entry: { state: 'queued', lastError: null },
      messageStatus: 'pending',
    });
  });

  it('sends only the oldest queued entry of each channel, skipping failed ones and busy channels', () => {
    const a1 = makeOutboxEntry({ channelId: 'a', order: 1, state: 'failed' });
    const a2 = makeOutboxEntry({ channelId: 'a', order: 2 });
    const a3 = makeOutboxEntry({ channelId: 'a', order: 3 });
    const b1 = makeOutboxEntry({ channelId: 'b', order: 4 });
    const c1 = makeOutboxEntry({ channelId: 'c', order: 5 });
    expect(sendable([a3, c1, b1, a2, a1], new Set(['c'])).map((e) => e.key)).toEqual([a2.key, b1.key]);
  });
});
