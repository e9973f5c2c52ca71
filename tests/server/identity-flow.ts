// A browser's part of a provider sign-in, done over HTTP for the server tests: the main window's secret and
// state, the popup's start at Lantern, the provider's pages (with their cookies) up to the callback, and
// the POST that finishes it. Each step is separate so tests can replay or swap one.
import { createHash, randomBytes } from 'node:crypto';

export const randomToken = () => randomBytes(32).toString('base64url');
export const bindingOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export interface Attempt {
  state: string;
  secret: string;
  /** The provider's authorization URL Lantern redirected the popup to. */
  authorizeUrl: URL;
}

/** Opens the popup's first page: Lantern's start route, which redirects to the provider. */
export async function startAttempt(lantern: string, providerId: string): Promise<Attempt> {
  const state = randomToken();
  const secret = randomToken();
  const res = await fetch(
    `${lantern}/api/auth/provider/${providerId}/start?state=${state}&binding=${bindingOf(secret)}`,
    { redirect: 'manual' },
  );
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`start answered ${res.status}`);
  return { state, secret, authorizeUrl: new URL(location, lantern) };
}

/**
 * Walks the provider's pages as a browser would (cookies kept), choosing `sub` on its account chooser,
 * and returns the callback URL the provider sends the popup to. `chooser` receives the chooser's HTML.
 */
export async function chooseAccount(
  authorizeUrl: URL,
  sub: string,
  chooser?: (html: string) => void,
): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.pathname === '/api/auth/provider/callback') return next;
      url = next;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200 || !/\/interaction\//.test(url.pathname))
      throw new Error(`provider: ${res.status} ${html.slice(0, 300)}`);
    chooser?.(html);
    url = new URL(`${url.pathname}/select?sub=${encodeURIComponent(sub)}`, url);
  }
  throw new Error('too many redirects at the provider');
}
