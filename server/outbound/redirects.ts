// Following an answer's redirects through the address guard: every hop's address is checked before it is
// requested, since a page may redirect to a private address the first one did not name. One place for
// every outbound reader that follows redirects (URL knowledge sources, link previews).
import type { IncomingMessage } from 'node:http';
import { urlRefusal } from './address-guard.ts';

export type RedirectProblem =
  | { kind: 'too-many'; max: number }
  | { kind: 'invalid' }
  | { kind: 'refused'; url: URL; refusal: string };

/** A redirect that was not followed; callers say it in their own words. */
export class RedirectError extends Error {
  readonly problem: RedirectProblem;
  constructor(problem: RedirectProblem) {
    super(`redirect not followed: ${problem.kind}`);
    this.problem = problem;
  }
}

/**
 * Sends `start` with `send`, then each redirect's target (relative ones resolved), at most `max` times;
 * resolves with the first answer that is not a redirect and the address it came from.
 */
export async function followRedirects(
  start: URL,
  send: (url: URL) => Promise<IncomingMessage>,
  options: { allowPrivate: boolean; max: number },
): Promise<{ url: URL; res: IncomingMessage }> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const res = await send(url);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status < 300 || status >= 400 || !location) return { url, res };
    res.destroy();
    if (redirects >= options.max) throw new RedirectError({ kind: 'too-many', max: options.max });
    try {
      url = new URL(location, url);
    } catch {
      throw new RedirectError({ kind: 'invalid' });
    }
    const refusal = urlRefusal(url, options.allowPrivate);
    if (refusal) throw new RedirectError({ kind: 'refused', url, refusal });
  }
}
