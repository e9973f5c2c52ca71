// What a "Not sent" message says and offers (issue 15 item 2, decision 0044): always why, in the server's
// or the uploader's own words, and Retry only where sending the same again can succeed. A refusal that
// would fail again (not allowed, not valid) offers Edit, when there are words to change, and Delete.

import type { SendFailure } from '../../data/messages.ts';

export interface FailureView {
  reason: string;
  retry: boolean;
  edit: boolean;
}

const UNKNOWN_REASON = 'The server did not accept it.';

/** `failure` undefined: the outbox row is not read yet, or gone; Retry stays offered as before. */
export function failureView(
  failure: SendFailure | undefined,
  message: { content: string; isPoll: boolean; mine: boolean },
): FailureView {
  const reason = sentence(failure?.lastError ?? '') || UNKNOWN_REASON;
  const retry = failure?.retryable ?? true;
  return { reason, retry, edit: !retry && message.mine && !message.isPoll && message.content !== '' };
}

/** The server's sentences end with a full stop mostly; make them all read as one. */
function sentence(text: string): string {
  const t = text.trim();
  if (!t) return '';
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
