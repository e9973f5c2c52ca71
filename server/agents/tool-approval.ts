// Waiting for the asker's approval of a tool call. The decision is a row change (answer-edit.ts), so it
// works whichever node receives it: the run polls the stored card, and a decision taken on this node wakes
// it at once. No decision in time counts as a rejection, written the same way so that a late click gets 409.
import { EventEmitter } from 'node:events';
import type { MessagesContext } from '../messages/context.ts';
import { decideToolCall, storedToolCall } from './answer-edit.ts';

type Ctx = Pick<MessagesContext, 'db' | 'broadcast'>;
export type Decision = 'approved' | 'rejected' | 'timed_out';

const POLL_MS = 500;
const wakeups = new EventEmitter();
wakeups.setMaxListeners(0);
const key = (messageId: string, toolCallId: string) => `${messageId}:${toolCallId}`;

/** Called by the decision route after it stored a decision: the run waiting on this node looks at once. */
export function announceDecision(messageId: string, toolCallId: string): void {
  wakeups.emit(key(messageId, toolCallId));
}

export const timeoutResult = (ms: number) =>
  `No decision within ${ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`}: not run.`;

function nap(messageId: string, toolCallId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wakeups.off(key(messageId, toolCallId), done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakeups.on(key(messageId, toolCallId), done);
  });
}

export async function waitForDecision(
  ctx: Ctx,
  channelId: string,
  messageId: string,
  toolCallId: string,
  timeoutMs: number,
): Promise<Decision> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const card = await storedToolCall(ctx.db, channelId, messageId, toolCallId);
    if (!card || card.status === 'rejected') return 'rejected';
    if (card.status !== 'awaiting_approval') return 'approved';
    const left = deadline - Date.now();
    if (left <= 0) {
      try {
        await decideToolCall(ctx, channelId, messageId, toolCallId, false, timeoutResult(timeoutMs));
        return 'timed_out';
      } catch {
        // The asker decided in the last instant (409): the loop reads that decision.
        continue;
      }
    }
    await nap(messageId, toolCallId, Math.min(POLL_MS, left));
  }
}
