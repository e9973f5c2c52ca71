// The asker's decision on an agent's tool call that waits for approval (decision 0001: screens call this,
// never fetch). Online only: the run is waiting on the server now, so a queued decision would be stale.
import type { Message } from '../../schemas/protocol.ts';
import { applyServerMessage } from '../store/messages.ts';
import { requireClient } from './client.ts';
import { channelPath } from './workspace-store.ts';

export interface ToolCallDecision {
  institutionId: string;
  channelId: string;
  /** The answer message's server id. */
  messageId: string;
  toolCallId: string;
  approve: boolean;
}

/** Rejects with ApiError carrying the server's message (e.g. someone else asked, or already decided). */
export async function decideToolCall(decision: ToolCallDecision): Promise<void> {
  const { http, db } = await requireClient();
  const { institutionId, channelId, messageId, toolCallId, approve } = decision;
  const res = await http.post<{ message?: Message } | Message | undefined>(
    `${channelPath(institutionId, channelId)}/messages/${encodeURIComponent(messageId)}/tool-calls/${encodeURIComponent(toolCallId)}/decision`,
    { approve },
  );
  // The card changes through newEditMessage anyway; an answer that carries the message shows it sooner.
  const message = res && 'genId' in res ? res : res?.message;
  if (message?.genId) await applyServerMessage(db, message);
}
