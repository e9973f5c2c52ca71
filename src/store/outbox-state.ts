// Pure state of one outbox entry and its message (no I/O; outbox-loop.ts does the sending).
//
//   enqueue ──► queued (message pending) ──send──► in flight (memory only, one per channel)
//                  ▲   ▲                              │ ack with the stored message ─► entry removed, message confirmed
//                  │   └──── transient ───────────────┤ (timeout, disconnected): stays queued, resent on
//                  │                                  │  reconnect and by the 60 s resync
//                retry                                └ ack {error} ─► failed (message failed)
//                  │
//               failed ──discard──► removed (pending/failed messages are removed locally only)
import type { MessageStatus, OutboxDoc } from '../../schemas/collections.ts';
import type { Message, Section } from '../../schemas/protocol/index.ts';

export type SendResult =
  | { kind: 'ok'; message: Message }
  /** A forward: the new messages, one per target channel. */
  | { kind: 'many'; messages: Message[] }
  /** A section change the server accepted, with the caller's layout afterwards when it sent one. */
  | { kind: 'applied'; sections: Section[] | null }
  /** Refused; `retryable`: sending the same again may succeed (the server failed, an upload may go now). */
  | { kind: 'error'; message: string; retryable?: boolean }
  | { kind: 'transient'; reason: string };

/** socket.io's timeout error message, and ours when not connected. */
export const TIMEOUT_MESSAGE = 'request timed out';
export const DISCONNECTED_MESSAGE = 'not connected';

export interface Transition {
  /** The entry to keep (null: remove it). */
  entry: OutboxDoc | null;
  /** The message status afterwards; for 'ok' the server copy is merged instead. */
  messageStatus: MessageStatus;
}

export function afterSend(entry: OutboxDoc, result: SendResult): Transition {
  switch (result.kind) {
    case 'ok':
    case 'many':
    case 'applied':
      return { entry: null, messageStatus: 'confirmed' };
    case 'error':
      return {
        entry: {
          ...entry,
          state: 'failed',
          attempts: entry.attempts + 1,
          lastError: result.message,
          retryable: result.retryable === true,
        },
        messageStatus: 'failed',
      };
    case 'transient':
      return {
        entry: { ...entry, state: 'queued', attempts: entry.attempts + 1, lastError: result.reason },
        messageStatus: 'pending',
      };
  }
}

/** Retry: a failed entry is queued again and its message pending. */
export function retry(entry: OutboxDoc): Transition {
  return { entry: { ...entry, state: 'queued', lastError: null }, messageStatus: 'pending' };
}

/**
 * Which entries may be sent now: per channel, the oldest queued entry, and only when nothing of that
 * channel is in flight (one at a time per channel keeps the sender's order). Failed entries are out
 * of the line until retried.
 */
export function sendable(entries: readonly OutboxDoc[], inFlightChannels: ReadonlySet<string>): OutboxDoc[] {
  const heads = new Map<string, OutboxDoc>();
  for (const e of [...entries].sort((a, b) => a.order - b.order)) {
    if (e.state !== 'queued' || inFlightChannels.has(e.channelId) || heads.has(e.channelId)) continue;
    heads.set(e.channelId, e);
  }
  return [...heads.values()];
}

let lastOrder = 0;
/** Strictly increasing enqueue order within this realm, roughly epoch-based across realms. */
export function nextOrder(now: number): number {
  lastOrder = Math.max(lastOrder + 1, now * 1000);
  return lastOrder;
}
