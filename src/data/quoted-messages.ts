// A reply's original when it is older than the messages this device holds for the channel: fetched once
// per tab (GET .../messages/:messageId) and kept in memory, not in the store. Stored there alone, it would
// sit far above the window with a gap below it that older pages would never fill.
import { useEffect, useState } from 'react';
import type { Message } from '../../schemas/protocol/index.ts';
// Not from index.ts: its route table and zod would join the channel's first scripts (decision 0067).
import { isIdParam } from '../../schemas/protocol/limits.ts';
import { ApiError } from '../store/api-error.ts';
import { requireConnection } from './client.ts';

/** What a quote shows: the original, or why it cannot (gone for good, or not reachable now). */
export type QuotedMessage =
  | { kind: 'found'; message: Message }
  | { kind: 'missing' }
  | { kind: 'unreachable' };

// Keyed by the whole path asked: a link's channel is what its author typed, so the same message id asked
// under another channel (or workspace) is another question, with its own answer.
const known = new Map<string, Promise<QuotedMessage>>();

/** One message of a channel from the server, asked once per tab while it answers (linked-messages.ts too). */
export function fetchQuoted(
  institutionId: string,
  channelId: string,
  messageId: string,
): Promise<QuotedMessage> {
  // A link's id is anything its author typed: one no message can have is none, without asking.
  if (!isIdParam(messageId)) return Promise.resolve({ kind: 'missing' });
  const key = `${institutionId}/${channelId}/${messageId}`;
  const cached = known.get(key);
  if (cached) return cached;
  const loading = (async (): Promise<QuotedMessage> => {
    const { http } = await requireConnection();
    try {
      const message = await http.call('message', { params: { id: institutionId, channelId, messageId } });
      return { kind: 'found', message };
    } catch (error) {
      // 400: an id the server refuses to look up (too long, say) names no message either.
      if (error instanceof ApiError && [400, 403, 404].includes(error.status)) return { kind: 'missing' };
      // Offline or a server error: asked again by the next quote that needs it.
      known.delete(key);
      return { kind: 'unreachable' };
    }
  })();
  known.set(key, loading);
  return loading;
}

/**
 * The original of a reply whose original is not among the loaded messages (`loaded` false), or
 * undefined while asking (and whenever it is loaded: the caller shows its own copy then).
 */
export function useQuotedMessage(
  institutionId: string,
  channelId: string,
  messageId: string | null,
  loaded: boolean,
): QuotedMessage | undefined {
  const [quoted, setQuoted] = useState<{ id: string; value: QuotedMessage } | null>(null);
  useEffect(() => {
    if (!messageId || loaded) return;
    let live = true;
    void fetchQuoted(institutionId, channelId, messageId).then((value) => {
      if (live) setQuoted({ id: messageId, value });
    });
    return () => {
      live = false;
    };
  }, [institutionId, channelId, messageId, loaded]);
  return quoted && quoted.id === messageId && !loaded ? quoted.value : undefined;
}
